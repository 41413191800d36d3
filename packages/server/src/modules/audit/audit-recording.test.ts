import { sql } from 'drizzle-orm';
import { generate } from 'otplib';
import { describe, expect, it } from 'vitest';
import { auditTestServer, eventually, PASSWORD, UA } from '../../../test/audit';
import { SoftAuthenticator } from '../../../test/soft-authenticator';
import { record, recordMemberEvent } from './service';

/**
 * The organizations' audit log as it is written: an append-only table, entries inside the
 * caller's transaction, and the security events of members (sign-ins, failures, two-step,
 * passkeys) recorded without ever breaking a sign-in.
 */
const audit = auditTestServer();
const { clock, tokens, call, signIn, events, allEvents } = audit;

describe('the table is append-only', () => {
  it('refuses UPDATE, DELETE and TRUNCATE, whoever asks', async () => {
    await record({ db: audit.server.database.db, clock }, { organizationId: audit.globex, action: 'member_invited', actor: { email: 'chief@globex.example' }, target: { email: 'new@globex.example' }, detail: { role: 'member' } });
    const db = audit.server.database.db;
    await expect(db.execute(sql`update organization_audit_events set action = 'sign_in'`)).rejects.toThrow();
    await expect(db.execute(sql`delete from organization_audit_events`)).rejects.toThrow();
    await expect(db.execute(sql`truncate organization_audit_events`)).rejects.toThrow();
    const failure = await db.execute(sql`delete from organization_audit_events`).catch((error: unknown) => error as Error & { cause?: Error });
    expect(String((failure as { cause?: Error }).cause?.message ?? failure)).toMatch(/append-only: DELETE refused/);
    const rows = await events(audit.globex);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ action: 'member_invited', actorEmail: 'chief@globex.example', targetEmail: 'new@globex.example', detail: { role: 'member' } });
  });

  it('records every membership action and refuses an unknown one', async () => {
    for (const action of ['member_invited', 'member_joined', 'member_removed', 'member_left', 'role_changed', 'invitation_revoked'] as const) {
      await record({ db: audit.server.database.db, clock }, { organizationId: audit.globex, action, actor: { userId: null, email: 'Chief@Globex.example' }, target: { email: 'x@globex.example' } });
    }
    expect((await events(audit.globex)).map((row) => row.action)).toContain('invitation_revoked');
    expect((await events(audit.globex)).every((row) => row.actorEmail === 'chief@globex.example')).toBe(true);
    await expect(record({ db: audit.server.database.db, clock }, { organizationId: audit.globex, action: 'dropped_table' as never })).rejects.toThrow(/unknown audit action/);
  });
});

describe('recording inside a caller’s transaction', () => {
  it('keeps the entry with the change, and drops it when the change rolls back', async () => {
    const before = (await events(audit.globex)).length;
    await expect(
      audit.server.database.db.transaction(async (tx) => {
        await record({ db: tx, clock }, { organizationId: audit.globex, action: 'member_removed', actor: { email: 'chief@globex.example' }, target: { email: 'gone@globex.example' } });
        throw new Error('the removal failed');
      }),
    ).rejects.toThrow('the removal failed');
    expect((await events(audit.globex)).length).toBe(before);
    await audit.server.database.db.transaction(async (tx) => {
      await record({ db: tx, clock }, { organizationId: audit.globex, action: 'member_removed', actor: { email: 'chief@globex.example' }, target: { email: 'gone@globex.example' } });
    });
    expect((await events(audit.globex)).length).toBe(before + 1);
  });
});

describe('recording the security events of members', () => {
  it('records a member’s sign-in with method, address and user agent, and nothing for a person in no organization', async () => {
    const before = (await allEvents()).length;
    expect((await signIn('loner@example.com')).statusCode).toBe(200);
    expect((await allEvents()).length).toBe(before);

    const response = await signIn('WORKER@acme.example', PASSWORD, '10.66.200.7');
    expect(response.statusCode).toBe(200);
    const last = (await events(audit.acme)).at(-1)!;
    expect(last).toMatchObject({ action: 'sign_in', actorEmail: 'worker@acme.example', targetEmail: 'worker@acme.example', ip: '10.66.200.7', userAgent: UA, detail: { method: 'password', mfa: false } });
    expect(last.actorUserId).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('records failed sign-ins of members, with or without an account, answering exactly as for anyone else', async () => {
    const before = (await allEvents()).length;
    const wrong = await signIn('worker@acme.example', 'not-the-password');
    const noAccount = await signIn('ghost@acme.example', 'not-the-password');
    const stranger = await signIn('nobody@nowhere.example', 'not-the-password');
    const outsider = await signIn('loner@example.com', 'not-the-password');
    for (const response of [wrong, noAccount, stranger, outsider]) {
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual(wrong.json());
    }
    const added = (await allEvents()).slice(before).sort((a, b) => a.id - b.id);
    expect(added.map((row) => [row.action, row.targetEmail, row.detail])).toEqual([
      ['sign_in_failed', 'worker@acme.example', { method: 'password', reason: 'auth.invalid_credentials' }],
      ['sign_in_failed', 'ghost@acme.example', { method: 'password', reason: 'auth.invalid_credentials' }],
    ]);
    expect(added[1]!.targetUserId).toBeNull();
  });

  it('records two-step turned on and off, a wrong second-step code, a second-step sign-in, and passkeys added and removed', async () => {
    const token = tokens['worker@acme.example']!;
    const setup = (await call('POST', '/v3/sso/me/2fa/totp/setup', { token })).json();
    const code = (steps = 0) => generate({ secret: setup.secret, epoch: Math.floor(clock.now().getTime() / 1000) + steps * 30 });
    expect((await call('POST', '/v3/sso/me/2fa/totp/enable', { token, body: { code: await code() } })).statusCode).toBe(200);
    await eventually(() => events(audit.acme), (rows) => rows.some((row) => row.action === 'two_factor_enabled'));

    const mfaToken = (await signIn('worker@acme.example')).json().mfa_token as string;
    expect(mfaToken).toBeTruthy();
    const wrongCode = String((Number(await code()) + 3) % 1_000_000).padStart(6, '0');
    expect((await call('POST', '/v3/sso/auth/mfa', { body: { mfa_token: mfaToken, code: wrongCode } })).statusCode).toBe(400);
    clock.advance(30_000);
    const second = await call('POST', '/v3/sso/auth/mfa', { body: { mfa_token: mfaToken, code: await code() } });
    expect(second.statusCode).toBe(200);
    clock.advance(30_000);
    expect((await call('POST', '/v3/sso/me/2fa/disable', { token, body: { password: PASSWORD, code: await code() } })).statusCode).toBe(204);

    const authenticator = new SoftAuthenticator(audit.server.config.PLATFORM_ORIGIN);
    const options = (await call('POST', '/v3/sso/users/me/webauthn/enable/options', { token, body: { algorithms: ['es256'] } })).json();
    const added = await call('POST', '/v3/sso/users/me/webauthn/enable', { token, body: { response: authenticator.register(options) } });
    expect(added.statusCode).toBe(200);
    const signedIn = await call('POST', '/v3/sso/users/webauthn/auth', { body: { response: authenticator.assert((await call('POST', '/v3/sso/users/webauthn/auth/options', { body: {} })).json()) } });
    expect(signedIn.statusCode).toBe(200);
    expect((await call('DELETE', `/v3/sso/users/me/webauthn/${added.json().id}`, { token })).statusCode).toBe(204);

    const rows = await eventually(() => events(audit.acme), (all) => all.some((row) => row.action === 'passkey_removed'));
    const mine = rows.filter((row) => row.targetEmail === 'worker@acme.example').map((row) => [row.action, row.detail]);
    expect(mine).toEqual(
      expect.arrayContaining([
        ['two_factor_enabled', { method: 'authenticator app' }],
        ['sign_in_failed', { method: 'second_step', reason: 'auth.code_invalid' }],
        ['sign_in', { method: 'password', mfa: true }],
        ['two_factor_disabled', { method: null }],
        ['passkey_added', { name: added.json().name }],
        ['sign_in', { method: 'passkey', mfa: true }],
        ['passkey_removed', { name: added.json().name }],
      ]),
    );
  });

  it('never breaks a sign-in: a failed write is logged without the person or a secret, and the sign-in goes on', async () => {
    const db = audit.server.database.db;
    const lines: Array<{ object: unknown; message: string }> = [];
    const log = { error: (object: unknown, message: string) => void lines.push({ object, message }) };
    await db.execute(sql`alter table organization_audit_events rename to organization_audit_events_away`);
    try {
      await recordMemberEvent({ db, clock, log }, { id: null, email: 'worker@acme.example' }, 'sign_in', { ip: '10.1.2.3', userAgent: UA }, { method: 'password' });
      const response = await signIn('worker@acme.example');
      expect(response.statusCode).toBe(200);
      expect(response.json().token).toBeTruthy();
      expect((await signIn('worker@acme.example', 'wrong-password-here')).json().code).toBe('auth.invalid_credentials');
    } finally {
      await db.execute(sql`alter table organization_audit_events_away rename to organization_audit_events`);
    }
    expect(lines).toHaveLength(1);
    expect(lines[0]!.message).toBe('organization audit event not recorded');
    const logged = JSON.stringify(lines[0]!.object);
    expect(logged).toContain('sign_in');
    for (const secret of ['worker@acme.example', '10.1.2.3', 'password', UA]) expect(logged).not.toContain(secret);
  });

  it('costs a person in no organization one indexed lookup: the unique index on the member email', async () => {
    const db = audit.server.database.db;
    // Tiny test tables would be scanned whole: forbid that (for this transaction only) to see the index is usable.
    const plan = await db.transaction(async (tx) => {
      await tx.execute(sql`set local enable_seqscan = off`);
      return tx.execute(sql`explain select organization_id from organization_members where email = 'loner@example.com' limit 1`);
    });
    expect(JSON.stringify(plan)).toMatch(/Index (Only )?Scan using organization_members_email_key/);
    // Measured: the lookup is a small fraction of a password check (argon2id) on this machine.
    const started = performance.now();
    for (let index = 0; index < 50; index += 1) await recordMemberEvent({ db, clock, log: { error: () => {} } }, { email: 'loner@example.com' }, 'sign_in', null);
    const perLookup = (performance.now() - started) / 50;
    expect(perLookup).toBeLessThan(20);
  });
});
