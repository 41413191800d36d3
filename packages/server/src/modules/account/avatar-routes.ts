import multipart from '@fastify/multipart';
import { AVATAR_MAX_BYTES, avatarEndpoints } from '@portal/contracts';
import type { FastifyPluginAsync } from 'fastify';
import type { Database } from '../../db/client';
import type { Clock } from '../../platform/clock';
import { AppError } from '../../platform/errors';
import { route } from '../../platform/http/route';
import { sendVersionedImage } from '../../platform/http/versioned-image';
import { principal } from '../sessions';
import { AVATAR_CONTENT_TYPE, avatarInvalid, processAvatar } from './avatar';
import { accountQueries } from './queries';
import { toUserDto } from '../users';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Profile pictures: upload (multipart, this plugin only), removal, and serving from our own
 * origin so pages never load pictures from elsewhere.
 */
export function avatarRoutes(db: Database, clock: Clock): FastifyPluginAsync {
  const queries = accountQueries(db);
  return async (app) => {
    await app.register(multipart, { limits: { fileSize: AVATAR_MAX_BYTES, files: 1, fields: 0, parts: 1, headerPairs: 100 } });

    route(
      app,
      avatarEndpoints.upload,
      async (request) => {
        const { user } = principal(request);
        let content: Buffer;
        try {
          const file = request.isMultipart() ? await request.file() : undefined;
          if (!file) throw avatarInvalid('missing');
          content = await file.toBuffer();
          if (file.file.truncated || content.length > AVATAR_MAX_BYTES) throw avatarInvalid('size');
        } catch (error) {
          if (error instanceof AppError) throw error;
          const code = (error as { code?: string }).code;
          throw avatarInvalid(code === 'FST_REQ_FILE_TOO_LARGE' ? 'size' : 'multipart');
        }
        const webp = await processAvatar(content);
        const version = await queries.saveAvatar(user.id, webp, AVATAR_CONTENT_TYPE, clock.now());
        return { avatar_url: toUserDto({ ...user, avatarVersion: version }).avatar_url };
      },
      // The multipart stream is read by the handler, past Fastify's JSON body limit.
      { bodyLimit: AVATAR_MAX_BYTES + 64 * 1024 },
    );

    route(app, avatarEndpoints.remove, async (request) => {
      await queries.deleteAvatar(principal(request).user.id, clock.now());
    });

    route(
      app,
      avatarEndpoints.picture,
      async (request, reply) => {
        const { id } = request.params;
        const found = UUID.test(id) ? await queries.findAvatar(id) : undefined;
        if (!found || found.version <= 0) throw new AppError('not_found');
        // Product sites on other origins show the picture too.
        reply.header('cross-origin-resource-policy', 'cross-origin');
        return sendVersionedImage(request, reply, { ...found, etag: `"${id}-${found.version}"` });
      },
    );
  };
}
