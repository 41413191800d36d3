import { createHmac } from 'node:crypto';
import { productEndpoints, supportChatEndpoints, type Language, type ProductPlan } from '@portal/contracts';
import type { FastifyPluginAsync } from 'fastify';
import type { Config } from '../../config';
import { AppError } from '../../platform/errors';
import { route } from '../../platform/http/route';
import { principal } from '../sessions';
import { toUserDto, type UserRow } from '../users';

/** Chatwoot's identity validation: HMAC-SHA256 of the identifier with the inbox's secret, hex. */
export function chatwootUserHash(identifier: string, secret: string): string {
  return createHmac('sha256', secret).update(identifier).digest('hex');
}

export function chatwootIdentity(user: UserRow, secret: string) {
  const dto = toUserDto(user);
  const language: Language = dto.language;
  return { identifier: user.id, name: user.fullName, email: user.email, language_override: language, user_hash: chatwootUserHash(user.id, secret) };
}

/** The support-chat identity and the password-manager user (the spec's call list). API keys need me:read. */
/** The person's plan of a product (billing's answer), bound in app.ts. */
export type ProductPlanLookup = (userId: string, product: string) => Promise<ProductPlan | undefined>;

export function supportChatRoutes(config: Config, productPlan: ProductPlanLookup = async () => undefined): FastifyPluginAsync {
  return async (app) => {
    const identity = (user: UserRow) => {
      if (!config.CHATWOOT_HMAC_SECRET) throw new AppError('not_found');
      return chatwootIdentity(user, config.CHATWOOT_HMAC_SECRET);
    };

    route(app, supportChatEndpoints.identity, async (request) => identity(principal(request).user));

    route(app, supportChatEndpoints.productIdentity, async (request) => identity(principal(request).user));

    route(app, productEndpoints.pmUser, async (request) => {
      const dto = toUserDto(principal(request).user);
      const plan = await productPlan(dto.id, request.params.product);
      return {
        ...(plan ? { plan } : {}),
        id: dto.id,
        email: dto.email,
        username: dto.username,
        full_name: dto.full_name,
        language: dto.language,
        avatar_url: dto.avatar_url,
        is_activated: dto.is_activated,
        two_factor_enabled: dto.two_factor_method !== null,
        created_at: dto.created_at,
      };
    });
  };
}
