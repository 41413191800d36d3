import type { Platform } from '../../platform/modules';
import { defineModule } from '../../platform/modules';
import { notificationRoutes } from './routes';
import { createSecurityAlertWorker, installSecurityAlertJob, type SecurityAlertWorker } from './security-alerts';
import { createNotificationService, type NotificationService } from './service';

export interface NotificationsMade {
  notifications: NotificationService;
  /** A sign-in's security alerts are queued with its session and delivered after the answer: right away on this node, else by any node's sweep. */
  securityAlerts: SecurityAlertWorker;
}

export const notificationsModule = defineModule({
  name: 'notifications',
  create: ({ platform }: { platform: Platform }): NotificationsMade => ({
    notifications: createNotificationService(platform),
    securityAlerts: createSecurityAlertWorker(platform),
  }),
  jobs: (app, { securityAlerts }, { platform }) => installSecurityAlertJob(app, securityAlerts, platform.config.SECURITY_ALERT_INTERVAL_SECONDS),
  routes: async (api, { notifications }) => {
    await api.register(notificationRoutes(notifications));
  },
});
