import type { Platform } from '../../platform/modules';
import { defineModule } from '../../platform/modules';
import { followIdentityChanges, installReadYourWrites, type IdentityChangeFeed } from './change-feed';
import { installAuthGuard, type AccessTokenAuthenticator, type ApiKeyAuthenticator } from './guard';
import { IdentityCache } from './identity-cache';
import { installSessionRetentionJob } from './retention';
import { sessionRoutes } from './routes';
import { createSessionService, type SessionService } from './service';

export interface SessionsMade {
  service: SessionService;
  feed: IdentityChangeFeed;
}

/** What most modules are made with: the platform and the sessions. */
export function withSessions(needs: { platform: Platform; sessions: SessionsMade }) {
  return { ...needs.platform, sessions: needs.sessions.service };
}

/** Sessions: who is signed in is read from memory, kept fresh by the database's change notifications. */
export const sessionsModule = defineModule({
  name: 'sessions',
  create: async ({ platform }: { platform: Platform }, host): Promise<SessionsMade> => {
    const { config, database, clock } = platform;
    const identities = new IdentityCache({ maxEntries: config.SESSION_CACHE_ENTRIES });
    const feed = await followIdentityChanges(database, identities);
    host.onClose(() => feed.close());
    const service = createSessionService(database.db, clock, { identities, get live() { return feed.live; } }, { idleTimeoutSeconds: config.SESSION_IDLE_TIMEOUT_SECONDS });
    return { service, feed };
  },
  guard: (app, { feed }, { platform }) => {
    if (platform.database.kind === 'postgres') installReadYourWrites(app, feed);
  },
  jobs: (app, _made, { platform: { config, db, clock } }) =>
    installSessionRetentionJob(app, { db, clock, retention: { retentionDays: config.SESSION_RETENTION_DAYS, idleTimeoutSeconds: config.SESSION_IDLE_TIMEOUT_SECONDS } }),
  routes: async (api, { service }, { platform }) => {
    await api.register(sessionRoutes(platform.config, service));
  },
});

/**
 * The guard of every request: a session cookie, a personal API key or a product's access token.
 * Listed after the modules that make the keys and the tokens, whose authenticators it takes.
 */
export const authGuardModule = defineModule({
  name: 'authGuard',
  create: () => undefined,
  guard: (app, _made, needs: { platform: Platform; sessions: SessionsMade; apiKeys: { keys: ApiKeyAuthenticator }; oauth: { accessTokens: AccessTokenAuthenticator } }) =>
    installAuthGuard(app, needs.platform.config, needs.sessions.service, needs.apiKeys.keys, needs.oauth.accessTokens),
});
