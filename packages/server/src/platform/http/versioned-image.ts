import type { FastifyReply, FastifyRequest } from 'fastify';

/**
 * Serves a stored picture from our own origin (profile pictures, outside apps' logos): a
 * versioned address (`?v=` the current version) never changes content, so it is cached for a
 * year; any other is revalidated by its ETag. Never framed, never run as a document.
 */
export function sendVersionedImage(
  request: FastifyRequest<{ Querystring: { v?: string } }>,
  reply: FastifyReply,
  image: { content: Buffer; contentType: string; etag: string; version: number; updatedAt: Date },
) {
  reply
    .header('content-type', image.contentType)
    .header('cache-control', request.query.v === String(image.version) ? 'public, max-age=31536000, immutable' : 'public, max-age=0, must-revalidate')
    .header('etag', image.etag)
    .header('last-modified', image.updatedAt.toUTCString())
    .header('content-security-policy', "default-src 'none'; frame-ancestors 'none'; sandbox");
  if (request.headers['if-none-match'] === image.etag) return reply.status(304).send();
  return reply.send(image.content);
}
