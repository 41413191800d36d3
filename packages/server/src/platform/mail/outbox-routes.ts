import { randomBytes } from 'node:crypto';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { DatabaseHandle } from '../../db/client';
import { AppError } from '../errors';
import { escapeHtml } from './html';
import { findOutboxMail, listOutbox, type OutboxMail } from './queries';

const listQuery = z.object({
  to: z.string().trim().max(320).optional(),
  limit: z.coerce.number().int().min(1).max(500).optional(),
});

/** Escaped text with its http(s) URLs made clickable (activation and reset links). */
function linkify(text: string): string {
  return escapeHtml(text).replace(/https?:\/\/[^\s<]+[^\s<.,;:!?)]/g, (url) => `<a href="${url}">${url}</a>`);
}

function page(mails: OutboxMail[], to: string | undefined, nonce: string): string {
  const items = mails
    .map(
      (mail) => `<article>
<header><strong>${escapeHtml(mail.subject)}</strong><br>
to <a href="/dev/outbox?to=${encodeURIComponent(mail.to)}">${escapeHtml(mail.to)}</a> ·
<time datetime="${mail.createdAt.toISOString()}">${mail.createdAt.toISOString()}</time> ·
<a href="/dev/outbox/${mail.id}">HTML version</a></header>
<pre>${linkify(mail.text)}</pre>
</article>`,
    )
    .join('\n');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Dev outbox</title>
<style nonce="${nonce}">
body{font-family:system-ui,sans-serif;max-width:860px;margin:24px auto;padding:0 16px;color:#111827}
article{border:1px solid #e5e7eb;border-radius:8px;padding:12px 16px;margin:12px 0}
header{font-size:14px;color:#4b5563}header strong{color:#111827;font-size:16px}
pre{white-space:pre-wrap;word-break:break-word;font-size:14px;background:#f9fafb;padding:12px;border-radius:6px}
</style></head>
<body><h1>Dev outbox</h1>
<p>Mail the server would have sent (no SMTP_URL is configured), newest first${to ? ` — to ${escapeHtml(to)} (<a href="/dev/outbox">all</a>)` : ''}.
JSON: <a href="/dev/outbox.json">/dev/outbox.json?to=…</a></p>
${items || '<p>No mail yet.</p>'}
</body></html>
`;
}

/**
 * The dev outbox, for people and for end-to-end tests: GET /dev/outbox (HTML),
 * GET /dev/outbox.json?to=&limit= and GET /dev/outbox/:id (one mail's HTML part). Mounted
 * only outside production — it shows every code and link the server has "sent".
 */
export function outboxRoutes(database: DatabaseHandle): FastifyPluginAsyncZod {
  return async (app) => {
    app.get('/dev/outbox', { schema: { hide: true, querystring: listQuery } }, async (request, reply) => {
      const mails = await listOutbox(database, request.query);
      const nonce = randomBytes(16).toString('base64');
      return reply
        .header('cache-control', 'no-store')
        .header('content-security-policy', `default-src 'none'; style-src 'nonce-${nonce}'; frame-ancestors 'none'`)
        .type('text/html; charset=utf-8')
        .send(page(mails, request.query.to, nonce));
    });

    app.get('/dev/outbox.json', { schema: { hide: true, querystring: listQuery } }, async (request, reply) => {
      const mails = await listOutbox(database, request.query);
      return reply.header('cache-control', 'no-store').send({
        mails: mails.map((mail) => ({ ...mail, createdAt: mail.createdAt.toISOString() })),
      });
    });

    app.get('/dev/outbox/:id', { schema: { hide: true, params: z.object({ id: z.uuid() }) } }, async (request, reply) => {
      const mail = await findOutboxMail(database, request.params.id);
      if (!mail) throw new AppError('not_found');
      // Our own escaped template: inline styles only, never scripts.
      return reply
        .header('cache-control', 'no-store')
        .header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'; img-src data:; frame-ancestors 'none'")
        .type('text/html; charset=utf-8')
        .send(mail.html);
    });
  };
}
