import Fastify, { type FastifyInstance } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fileDatabase } from '../../../test/db-target';
import { installErrorHandling } from '../errors';
import { createMailer, outboxRoutes } from './index';

const database = fileDatabase();
let app: FastifyInstance;
beforeAll(async () => {
  app = Fastify();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  installErrorHandling(app);
  await app.register(outboxRoutes(database));
  const mailer = createMailer({ from: 'x@localhost', database });
  await mailer.send({ to: 'eve@example.com', subject: 'Old <one>', text: 'open https://id.test/confirmation/t1?a=1&b=2.', html: '<p>old</p>' });
  await mailer.send({ to: 'eve@example.com', subject: 'New', text: 'code 123456', html: '<p style="color:red">new</p>' });
  await mailer.send({ to: 'zed@example.com', subject: 'Zed', text: '<script>alert(1)</script>', html: '<p>z</p>' });
});
afterAll(async () => {
  await app?.close();
});

describe('dev outbox routes', () => {
  it('lists mail as escaped HTML, newest first, with clickable links', async () => {
    const response = await app.inject({ url: '/dev/outbox' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toContain('text/html');
    expect(response.headers['content-security-policy']).toContain("default-src 'none'");
    const body = response.body;
    expect(body.indexOf('Zed')).toBeLessThan(body.indexOf('New'));
    expect(body.indexOf('New')).toBeLessThan(body.indexOf('Old &lt;one&gt;'));
    expect(body).not.toContain('<script>');
    expect(body).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(body).toContain('<a href="https://id.test/confirmation/t1?a=1&amp;b=2">https://id.test/confirmation/t1?a=1&amp;b=2</a>.');
  });

  it('filters by recipient as JSON', async () => {
    const response = await app.inject({ url: '/dev/outbox.json?to=EVE@example.com' });
    expect(response.statusCode).toBe(200);
    const { mails } = response.json() as { mails: Array<{ id: string; subject: string; text: string; createdAt: string }> };
    expect(mails.map((mail) => mail.subject)).toEqual(['New', 'Old <one>']);
    expect(mails[0]!.text).toBe('code 123456');
    expect(new Date(mails[0]!.createdAt).getTime()).not.toBeNaN();

    const one = await app.inject({ url: `/dev/outbox/${mails[0]!.id}` });
    expect(one.statusCode).toBe(200);
    expect(one.body).toBe('<p style="color:red">new</p>');
  });

  it('answers 404 for an unknown mail and 400 for a bad limit', async () => {
    expect((await app.inject({ url: '/dev/outbox/00000000-0000-4000-8000-000000000000' })).statusCode).toBe(404);
    expect((await app.inject({ url: '/dev/outbox.json?limit=0' })).statusCode).toBe(400);
  });
});
