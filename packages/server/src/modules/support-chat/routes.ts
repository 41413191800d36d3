import { createHmac } from 'node:crypto';
import { chatwootIdentitySchema, errorBodySchema, languageSchema, type Language } from '@portal/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Config } from '../../config';
import { AppError } from '../../platform/errors';
import { principal } from '../sessions';
import { toUserDto, type UserRow } from '../users';

const security: Array<Record<string, string[]>> = [{ bearer: [] }, { cookie: [] }];
const errors = { 401: errorBodySchema, 403: errorBodySchema, 404: errorBodySchema };
/** `{product}_platform`: a product id of lower-case letters and digits (e.g. `locker`). */
const PRODUCT_SEGMENT = ':product(^[a-z][a-z0-9]{0,31})_platform';
const productParams = z.object({ product: z.string() });

/**
 * The password-manager user (GET /{product}_platform/pm/users/me): not in the shared contracts,
 * which name the call but not its fields; these are what the product pages read.
 */
export const pmUserSchema = z.object({
  id: z.string(),
  email: z.string(),
  username: z.string().nullable(),
  full_name: z.string(),
  language: languageSchema,
  avatar_url: z.string().nullable(),
  is_activated: z.boolean(),
  two_factor_enabled: z.boolean(),
  created_at: z.string(),
});

/** Chatwoot's identity validation: HMAC-SHA256 of the identifier with the inbox's secret, hex. */
export function chatwootUserHash(identifier: string, secret: string): string {
  return createHmac('sha256', secret).update(identifier).digest('hex');
}

export function chatwootIdentity(user: UserRow, secret: string) {
  const dto = toUserDto(user);
  const language: Language = dto.language;
  return { identifier: user.id, name: user.fullName, email: user.email, language_override: language, user_hash: chatwootUserHash(user.id, secret) };
}

/** The support-chat identity and the password-manager user (spec section 7). API keys need me:read. */
export function supportChatRoutes(config: Config): FastifyPluginAsyncZod {
  return async (app) => {
    const identity = (user: UserRow) => {
      if (!config.CHATWOOT_HMAC_SECRET) throw new AppError('not_found');
      return chatwootIdentity(user, config.CHATWOOT_HMAC_SECRET);
    };

    app.get(
      '/sso/me/chatwoot',
      {
        preHandler: app.requireAuth,
        config: { scope: 'me:read' },
        schema: { tags: ['support-chat'], security, summary: 'Support-chat identity (404 when the chat is not configured)', response: { 200: chatwootIdentitySchema, ...errors } },
      },
      async (request) => identity(principal(request).user),
    );

    app.get(
      `/${PRODUCT_SEGMENT}/pm/users/me/chatwoot`,
      {
        preHandler: app.requireAuth,
        config: { scope: 'me:read' },
        schema: {
          tags: ['support-chat'],
          security,
          summary: 'Support-chat identity for a product (the locker product uses this one)',
          params: productParams,
          response: { 200: chatwootIdentitySchema, ...errors },
        },
      },
      async (request) => identity(principal(request).user),
    );

    app.get(
      `/${PRODUCT_SEGMENT}/pm/users/me`,
      {
        preHandler: app.requireAuth,
        config: { scope: 'me:read' },
        schema: { tags: ['support-chat'], security, summary: 'The password-manager user', params: productParams, response: { 200: pmUserSchema, ...errors } },
      },
      async (request) => {
        const dto = toUserDto(principal(request).user);
        return {
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
      },
    );
  };
}
