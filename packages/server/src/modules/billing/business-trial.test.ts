import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { BUSINESS_TRIAL_MAX_MEMBERS } from '@portal/contracts';
import { personWithCard } from '../../../test/billing';
import { solveCaptcha } from '../../../test/captcha';
import { manualClock } from '../../../test/clock';
import { fileServerWithClient } from '../../../test/server-with-client';
import { organizationMembers, subscriptions, trialUsages, users } from '../../db/schema';
import { listOutbox } from '../../platform/mail';

const clock = manualClock(new Date('2026-03-01T10:00:00Z'));
const { server, client } = fileServerWithClient({ clock, env: { BILLING_JOB_INTERVAL_SECONDS: '0' } });

const form = (email: string, extra: Record<string, unknown> = {}) => ({ company: 'AcmeCorp', full_name: 'Ada Admin', email, members: 5, ...extra });
/** The trial as the web form posts it: signed in (or not), with a solved captcha unless told otherwise. */
async function trial(email: string, options: { session?: string; captcha?: boolean; extra?: Record<string, unknown>; ip?: string } = {}) {
  const captcha = options.captcha === false ? {} : { captcha: await solveCaptcha(server.app) };
  return server.app.inject({
    method: 'POST',
    url: '/v3/billing/business-trial',
    remoteAddress: options.ip ?? '127.0.0.1',
    payload: { ...form(email, options.extra), ...captcha },
    headers: options.session ? { authorization: `Bearer ${options.session}` } : {},
  });
}
const db = () => server.database.db;
const userIdOf = async (email: string) => (await db().select().from(users).where(eq(users.email, email)))[0]!.id;
const membershipsOf = (email: string) => db().select().from(organizationMembers).where(eq(organizationMembers.email, email));
const subscriptionsOf = async (email: string) => db().select().from(subscriptions).where(eq(subscriptions.userId, await userIdOf(email)));
const mailsTo = async (email: string) => (await listOutbox(server.database, { to: email, limit: 50 })).length;

describe('the business trial', () => {
  it('an anonymous request naming an existing account changes nothing about it, and answers as for an unknown email', async () => {
    const victim = 'victim@example.com';
    await personWithCard(server, client, victim);
    const mailsBefore = await mailsTo(victim);

    const attack = await trial(victim);
    const unknown = await trial('nobody-yet@example.com');
    // The same refusal whoever the email names: nothing to learn about who has an account.
    expect(attack.statusCode).toBe(401);
    expect(unknown.statusCode).toBe(401);
    expect(attack.json()).toEqual(unknown.json());

    expect(await membershipsOf(victim)).toEqual([]);
    expect(await subscriptionsOf(victim)).toEqual([]);
    expect(await db().select().from(trialUsages)).toEqual([]);
    await server.mailer.settled();
    expect(await mailsTo(victim)).toBe(mailsBefore);
    expect(await mailsTo('nobody-yet@example.com')).toBe(0);
  });

  it("a signed-in person starts their own company's trial once, behind the captcha, with seats within the plan", async () => {
    const email = 'boss@acme.test';
    const session = await client.registeredUser(email);

    expect((await trial(email, { session, captcha: false })).json().code).toBe('auth.captcha_required');
    const tooMany = await trial(email, { session, extra: { members: BUSINESS_TRIAL_MAX_MEMBERS + 1 } });
    expect(tooMany.statusCode).toBe(400);
    expect(tooMany.json().details.fields.members).toBeDefined();
    // Someone else's email, even signed in: refused, nothing made for either.
    const other = await trial('someone-else@example.com', { session });
    expect(other.statusCode).toBe(403);
    expect(other.json().code).toBe('billing.trial_email_mismatch');
    expect(await membershipsOf(email)).toEqual([]);
    expect(await membershipsOf('someone-else@example.com')).toEqual([]);

    const started = await trial(email.toUpperCase(), { session });
    expect(started.statusCode).toBe(201);
    expect(started.json()).toMatchObject({ email });
    const [membership] = await membershipsOf(email);
    expect(membership).toMatchObject({ role: 'owner', userId: await userIdOf(email) });
    const [subscription] = await subscriptionsOf(email);
    expect(subscription).toMatchObject({ status: 'trialing', seats: 5, organizationId: membership!.organizationId, plan: 'pwdmanager.business' });
    await client.mailTo(email, /The 14-day business trial of AcmeCorp is active/);

    const again = await trial(email, { session });
    expect(again.json()).toMatchObject({ code: '7013', message: `The trial plan was applied for ${email}` });
  });

  it('refuses a member of an enterprise (7015) and an account with a plan of the product (7014)', async () => {
    const boss = await client.registeredUser('owner@beta.test');
    expect((await trial('owner@beta.test', { session: boss })).statusCode).toBe(201);
    const [owner] = await membershipsOf('owner@beta.test');
    const memberSession = await client.registeredUser('dev@beta.test');
    await db().insert(organizationMembers).values({ organizationId: owner!.organizationId, email: 'dev@beta.test', role: 'member' });
    expect((await trial('dev@beta.test', { session: memberSession })).json()).toMatchObject({ code: '7015', message: 'dev@beta.test is in an Enterprise, leave it or use another email' });

    const { session } = await personWithCard(server, client, 'planned@example.com');
    await server.app.inject({ method: 'POST', url: '/v3/sso/me/subscriptions', headers: { authorization: `Bearer ${session}` }, payload: { plan: 'pwdmanager.premium', months: 1, currency: 'USD', idempotency_key: 'planned-key-1' } });
    expect((await trial('planned@example.com', { session })).json()).toMatchObject({
      code: '7014',
      message: 'A Locker account for this email exists. Cancel the current plan or use another email to register the business plan',
    });
  });

  it('counts the tries of one account: past the limit it is told to wait', async () => {
    const session = await client.registeredUser('eager@example.com');
    const answers: number[] = [];
    for (let attempt = 0; attempt < 7; attempt += 1) answers.push((await trial('someone@example.com', { session, ip: `127.9.0.${attempt + 1}` })).statusCode);
    expect(answers.slice(0, 5)).toEqual([403, 403, 403, 403, 403]);
    expect(answers.at(-1)).toBe(429);
  });
});
