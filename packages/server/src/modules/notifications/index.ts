/** The notifications module: the in-app list, and security events (a notification and a mail). */
export {
  accountInventory,
  createNotification,
  createNotifications,
  createNotificationService,
  notifySecurityEvent,
  securityEventKinds,
  type NewNotification,
  type NotificationService,
  type NotifierDependencies,
  type SecurityEventKind,
  type SecurityEventOptions,
} from './service';
export {
  createSecurityAlertWorker,
  installSecurityAlertJob,
  SECURITY_ALERT_RETRY_MS,
  type SecurityAlert,
  type SecurityAlertWorker,
} from './security-alerts';
export { notificationRoutes } from './routes';
export { notificationsModule, type NotificationsMade } from './module';
