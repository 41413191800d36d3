import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { notifications, securityAlerts, users } from '../../db/schema';
import { manualClock } from '../../../test/clock';
import { createMailer } from '../../platform/mail';
import { fileServerWithClient } from '../../../test/server-with-client';
import { securityCopy } from './security-copy';
import { createNotification, notifySecurityEvent, type NotifierDependencies } from './service';

const PASSWORD = 'plum-orbit-cactus-917';
const clock = manualClock();
const { server, client } = fileServerWithClient({ clock });
let deps: NotifierDependencies;

beforeAll(async () => {
  const log = { error: () => {} };
  deps = { config: server.config, db: server.database.db, clock, mailer: createMailer({ from: 'test@localhost', database: server.database }), log };
});

const call = (token: string, method: 'GET' | 'PUT', url: string, payload?: object) =>
  server.app.inject({ method, url, payload, headers: { authorization: `Bearer ${token}` } });
const idOf = async (email: string) => (await server.database.db.select().from(users).where(eq(users.email, email)))[0]!.id;

describe('notification list', () => {
  it('pages newest first with the unread count, marks one read, then all', async () => {
    const token = await client.registeredUser('reader@example.com');
    const userId = await idOf('reader@example.com');
    const made = [];
    for (const [index, input] of [
      { type: 'reports', title: 'New comment', metadata: { report_id: 'r-1', comment_id: 'c-9', program_alias: 'acme' }, target: 'owner' },
      { type: 'programs', title: 'Program launched', metadata: { program_alias: 'acme' } },
      { type: 'programs/updates', title: 'Scope changed', metadata: { program_alias: 'acme' } },
      { type: 'transactions', title: 'Payout sent', metadata: { transaction_id: 't-1' } },
    ].entries()) {
      clock.advance(1000);
      made[index] = await createNotification(deps, userId, input as Parameters<typeof createNotification>[2]);
    }

    const first = await call(token, 'GET', '/v3/notifications?page=1&page_size=3');
    expect(first.statusCode).toBe(200);
    expect(first.json()).toMatchObject({ total: 4, unread_count: 4 });
    expect(first.json().items.map((n: { title: string }) => n.title)).toEqual(['Payout sent', 'Scope changed', 'Program launched']);
    const second = (await call(token, 'GET', '/v3/notifications?page=2&page_size=3')).json();
    expect(second.items).toEqual([
      {
        id: made[0]!.id,
        type: 'reports',
        title: 'New comment',
        body: '',
        metadata: { report_id: 'r-1', comment_id: 'c-9', program_alias: 'acme' },
        target: 'owner',
        read: false,
        created_at: made[0]!.created_at,
      },
    ]);

    const marked = await call(token, 'PUT', `/v3/notifications/${made[0]!.id}`, { read: true });
    expect(marked.statusCode).toBe(200);
    expect(marked.json()).toMatchObject({ id: made[0]!.id, read: true });
    expect((await call(token, 'PUT', `/v3/notifications/${made[0]!.id}`, { read: true })).statusCode).toBe(200);
    expect((await call(token, 'GET', '/v3/notifications')).json().unread_count).toBe(3);

    expect((await call(token, 'PUT', '/v3/notifications/read-all')).json()).toEqual({ updated: 3 });
    expect((await call(token, 'GET', '/v3/notifications')).json().unread_count).toBe(0);
  });

  it("answers 404 notifications.not_found for someone else's notification or a made-up id", async () => {
    const owner = await idOf('reader@example.com');
    const theirs = await createNotification(deps, owner, { type: 'other', title: 'Private' });
    const stranger = await client.registeredUser('nosy@example.com');
    for (const id of [theirs.id, '00000000-0000-4000-8000-000000000000', 'not-an-id']) {
      const response = await call(stranger, 'PUT', `/v3/notifications/${id}`, { read: true });
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual({ code: 'notifications.not_found', message: 'Notification not found' });
    }
    expect((await call(stranger, 'GET', '/v3/notifications')).json()).toEqual({ items: [], unread_count: 0, total: 0 });
  });

  it('validates paging and the body, and needs a sign-in', async () => {
    const token = await client.registeredUser('pager@example.com');
    expect((await call(token, 'GET', '/v3/notifications?page_size=1000')).statusCode).toBe(400);
    expect((await call(token, 'GET', '/v3/notifications?page=0')).statusCode).toBe(400);
    expect((await call(token, 'PUT', '/v3/notifications/00000000-0000-4000-8000-000000000000', { read: false })).statusCode).toBe(400);
    expect((await server.app.inject({ url: '/v3/notifications' })).statusCode).toBe(401);
  });
});

describe('security events', () => {
  it('notify in the app and by mail, in the user language', async () => {
    await client.registeredUser('secure@example.com');
    const userId = await idOf('secure@example.com');
    await server.database.db.update(users).set({ language: 'vi' }).where(eq(users.id, userId));
    await notifySecurityEvent(deps, userId, 'two_factor_disabled');
    await client.mailTo('secure@example.com', /Xác thực hai bước vừa được tắt/);
    await notifySecurityEvent(deps, userId, 'password_changed', { lang: 'en', mail: false });
    const token = (await client.signIn('secure@example.com', PASSWORD)).json().token as string;
    const titles = (await call(token, 'GET', '/v3/notifications')).json().items.map((n: { title: string }) => n.title);
    expect(titles).toEqual(expect.arrayContaining(['Xác thực hai bước đã bị tắt', 'Your password was changed']));
  });

  it('alert on a sign-in from a device never seen for the user, not on the first sign-in or a known device', async () => {
    await client.registeredUser('devices@example.com');
    const userId = await idOf('devices@example.com');
    const { title } = securityCopy('new_device_sign_in', 'en', 'Test');
    // The alert is queued with the session and notified after the answer: counted once the queue is empty.
    const alerts = async () => {
      for (let tries = 0; tries < 200 && (await server.database.db.select().from(securityAlerts)).length > 0; tries++) await new Promise((resolve) => setTimeout(resolve, 25));
      return (await server.database.db.select().from(notifications).where(and(eq(notifications.userId, userId), eq(notifications.title, title)))).length;
    };
    const signInFrom = async (deviceId: string) => {
      const response = await client.post('/v3/sso/auth', { email: 'devices@example.com', password: PASSWORD }, { 'device-id': deviceId, 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) Chrome/120.0 Safari/537.36' });
      expect(response.statusCode).toBe(200);
    };
    // registeredUser's own sign-in came from a random device id: that was the first session, and alerted nobody.
    expect(await alerts()).toBe(0);
    await signInFrom('laptop-device-0001');
    expect(await alerts()).toBe(1);
    await signInFrom('laptop-device-0001');
    expect(await alerts()).toBe(1);
    await signInFrom('phone-device-0002');
    expect(await alerts()).toBe(2);
    await client.mailTo('devices@example.com', /signed in to from a new device: Chrome 120/);
  });
});
