import { APP_LOGO_MAX_BYTES, DEVICE_CODE_GRANT, type AdminApp, type AdminAppSettings, type RegisterAppRequest, type RegisteredApp, type SetAppLogoRequest, type UpdateAppRequest } from '@portal/contracts';
import type { Config } from '../../config';
import type { Database } from '../../db/client';
import { checkEgressTarget, egressFetch, egressFieldError, type EgressPolicy } from '../../platform/egress';
import { AppError } from '../../platform/errors';
import { ImageRejected } from '../../platform/square-image';
import {
  clientLogoPath,
  firstPartyClients,
  OutsideAppUrlRefused,
  outsideAppMetadata,
  outsideAppScope,
  PublicClientHasNoSecret,
  thirdPartyClients,
  thirdPartyInput,
  type PortalClientMetadata,
  type StoredOutsideApp,
} from './clients';
import type { CurrentProvider } from './current-provider';

const iso = (date: Date | null) => date?.toISOString() ?? null;
const list = (value: unknown): string[] => (Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : []);
const text = (value: unknown): string | null => (typeof value === 'string' && value ? value : null);

function firstPartyApp(metadata: PortalClientMetadata): AdminApp {
  return {
    client_id: metadata.client_id,
    name: String(metadata.client_name ?? metadata.client_id),
    kind: 'first_party',
    public: metadata.token_endpoint_auth_method === 'none',
    has_secret: typeof metadata.client_secret === 'string',
    disabled: false,
    redirect_uris: list(metadata.redirect_uris),
    post_logout_redirect_uris: list(metadata.post_logout_redirect_uris),
    backchannel_logout_uri: text(metadata.backchannel_logout_uri),
    site: text(metadata.client_uri),
    logo_uri: null,
    scopes: String(metadata.scope ?? '').split(' ').filter(Boolean),
    grant_types: list(metadata.grant_types),
    service_scope: metadata.service_scope ?? null,
    created_at: null,
    updated_at: null,
    disabled_at: null,
  };
}

function outsideApp(app: StoredOutsideApp): AdminApp {
  const { metadata } = app;
  return {
    client_id: app.clientId,
    name: String(metadata.client_name ?? app.clientId),
    kind: 'outside',
    public: metadata.token_endpoint_auth_method === 'none',
    has_secret: app.hasSecret,
    disabled: app.disabledAt !== null,
    redirect_uris: list(metadata.redirect_uris),
    post_logout_redirect_uris: list(metadata.post_logout_redirect_uris),
    backchannel_logout_uri: text(metadata.backchannel_logout_uri),
    site: text(metadata.client_uri),
    logo_uri: metadata.portal_logo ? clientLogoPath(app.clientId, metadata.portal_logo) : null,
    scopes: outsideAppScope(metadata.scope).split(' '),
    grant_types: list(metadata.grant_types),
    service_scope: null,
    created_at: iso(app.createdAt),
    updated_at: iso(app.updatedAt),
    disabled_at: iso(app.disabledAt),
  };
}

/** The settings an outside app has now, in the console's terms (the base an edit changes). */
function settingsOf(metadata: PortalClientMetadata): AdminAppSettings {
  return {
    name: String(metadata.client_name ?? ''),
    redirect_uris: list(metadata.redirect_uris),
    post_logout_redirect_uris: list(metadata.post_logout_redirect_uris),
    backchannel_logout_uri: text(metadata.backchannel_logout_uri),
    site: text(metadata.client_uri),
    scopes: outsideAppScope(metadata.scope).split(' ') as AdminAppSettings['scopes'],
    grant_types: list(metadata.grant_types) as AdminAppSettings['grant_types'],
  };
}

/** The registry's input from console settings. */
const registryInput = (settings: AdminAppSettings, isPublic: boolean) =>
  thirdPartyInput.parse({
    name: settings.name,
    redirectUris: settings.redirect_uris,
    postLogoutRedirectUris: settings.post_logout_redirect_uris,
    ...(settings.backchannel_logout_uri ? { backchannelLogoutUri: settings.backchannel_logout_uri } : {}),
    ...(settings.site ? { site: settings.site } : {}),
    public: isPublic,
    refreshTokens: settings.grant_types.includes('refresh_token'),
    deviceFlow: settings.grant_types.includes(DEVICE_CODE_GRANT),
    scopes: settings.scopes,
  });

/**
 * Apps in the operators' console: the products' own clients, read from their file (never
 * changed here), and outside apps, kept in the database, which every node's provider reads on
 * each request (adapter.ts): a change holds everywhere at once, with no restart and no cache
 * to clear. Secrets are shown once, in the answer that made them, and stored as hashes.
 */
export function createAdminApps(deps: { config: Config; db: Database; provider: CurrentProvider; egress: EgressPolicy }) {
  const firstParty = new Map(firstPartyClients(deps.config).map((client) => [client.client_id, client]));

  /** The provider's own checks of client metadata (redirect URI rules and the rest), before anything is stored. */
  async function validate(metadata: PortalClientMetadata): Promise<void> {
    try {
      await deps.provider().Client.validate(metadata);
    } catch (error) {
      const detail = (error as { error_description?: string }).error_description ?? (error as Error).message;
      throw new AppError('admin.app_settings_invalid', { detail }, { detail });
    }
  }

  const registry = thirdPartyClients(deps.db, deps.egress, { validate });

  /** The server posts logout tokens there: refused at once when it is not a public https address. */
  async function checkBackchannel(uri: string | null | undefined): Promise<void> {
    if (!uri) return;
    const problem = await checkEgressTarget(uri, deps.egress);
    if (problem) throw egressFieldError('backchannel_logout_uri', problem);
  }

  function refuseFirstParty(clientId: string): void {
    if (firstParty.has(clientId)) throw new AppError('admin.app_first_party');
  }

  async function outside(clientId: string): Promise<AdminApp> {
    const app = await registry.find(clientId);
    if (!app) throw new AppError('admin.not_found');
    return outsideApp(app);
  }

  /** A logo's bytes: given, or fetched once from an https address through the egress guard. */
  async function logoBytes(body: SetAppLogoRequest): Promise<Buffer> {
    if (body.image_base64 !== undefined) {
      const bytes = Buffer.from(body.image_base64, 'base64');
      if (bytes.length === 0 || bytes.length > APP_LOGO_MAX_BYTES) throw new AppError('admin.logo_invalid');
      return bytes;
    }
    const url = body.url!;
    const problem = await checkEgressTarget(url, deps.egress);
    if (problem) throw egressFieldError('url', problem);
    try {
      const response = await egressFetch(url, {}, { ...deps.egress, maxResponseBytes: APP_LOGO_MAX_BYTES });
      if (!response.ok) throw new Error(`answered ${response.status}`);
      return Buffer.from(await response.arrayBuffer());
    } catch {
      throw new AppError('admin.logo_unreachable');
    }
  }

  return {
    async list(): Promise<AdminApp[]> {
      return [...[...firstParty.values()].map(firstPartyApp), ...(await registry.all()).map(outsideApp)];
    },

    async get(clientId: string): Promise<AdminApp> {
      const own = firstParty.get(clientId);
      return own ? firstPartyApp(own) : outside(clientId);
    },

    async register(body: RegisterAppRequest & { reason?: string }): Promise<RegisteredApp> {
      const { public: isPublic = false, ...settings } = body as AdminAppSettings & { public?: boolean };
      await checkBackchannel(settings.backchannel_logout_uri);
      let registered;
      try {
        registered = await registry.add(registryInput(settings, isPublic));
      } catch (error) {
        if (error instanceof OutsideAppUrlRefused) throw egressFieldError('backchannel_logout_uri', 'address');
        throw error;
      }
      return { app: await outside(registered.clientId), client_secret: registered.clientSecret ?? null };
    },

    async update(clientId: string, patch: UpdateAppRequest): Promise<AdminApp> {
      refuseFirstParty(clientId);
      const { reason: _reason, ...changes } = patch;
      await checkBackchannel(changes.backchannel_logout_uri);
      const updated = await registry.update(clientId, (current) => {
        const settings = { ...settingsOf(current), ...Object.fromEntries(Object.entries(changes).filter(([, value]) => value !== undefined)) } as AdminAppSettings;
        return outsideAppMetadata(registryInput(settings, current.token_endpoint_auth_method === 'none'));
      });
      if (!updated) throw new AppError('admin.not_found');
      return outsideApp(updated);
    },

    async setLogo(clientId: string, body: SetAppLogoRequest): Promise<AdminApp> {
      refuseFirstParty(clientId);
      if (!(await registry.find(clientId))) throw new AppError('admin.not_found');
      const bytes = await logoBytes(body);
      try {
        if (!(await registry.setLogo(clientId, bytes))) throw new AppError('admin.not_found');
      } catch (error) {
        if (error instanceof ImageRejected) throw new AppError('admin.logo_invalid');
        throw error;
      }
      return outside(clientId);
    },

    /** The new secret is in this answer only (never logged, never in the operator audit log, never read back). */
    async rotateSecret(clientId: string): Promise<{ client_id: string; client_secret: string }> {
      refuseFirstParty(clientId);
      try {
        const rotated = await registry.rotate(clientId);
        if (!rotated?.clientSecret) throw new AppError('admin.not_found');
        return { client_id: clientId, client_secret: rotated.clientSecret };
      } catch (error) {
        if (error instanceof PublicClientHasNoSecret) throw new AppError('admin.app_public');
        throw error;
      }
    },

    async setDisabled(clientId: string, disabled: boolean): Promise<AdminApp> {
      refuseFirstParty(clientId);
      if (!(await registry.setDisabled(clientId, disabled))) throw new AppError('admin.not_found');
      return outside(clientId);
    },

    async remove(clientId: string): Promise<void> {
      refuseFirstParty(clientId);
      if (!(await registry.remove(clientId))) throw new AppError('admin.not_found');
    },
  };
}
export type AdminApps = ReturnType<typeof createAdminApps>;
