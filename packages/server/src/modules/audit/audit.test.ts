import { eq, sql } from 'drizzle-orm';
import { generate } from 'otplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manualClock } from '../../../test/clock';
import { identityClient } from '../../../test/identity';
import { startTestServer, type TestServer } from '../../../test/harness';
import { SoftAuthenticator } from '../../../test/soft-authenticator';
import { organizationAuditEvents, organizationMembers, organizations as organizationsTable } from '../../db/schema';
import { createOrganizationService } from '../organizations';
import { csvCell, csvRecord } from './csv';
import { record, recordMemberEvent } from './service';

const clock = manualClock(new Date(Math.floor(Date.now() / 30_000) * 30_000 + 15_000));
let server: TestServer;
let client: ReturnType<typeof identityClient>;
let organizations: ReturnType<typeof createOrganizationService>;
let acme: string;
let globex: string;
const PASSWORD = 'plum-orbit-cactus-917';
const UA = 'Mozilla/5.0 (X11; Linux x86_64) AuditTest/1.0';
const tokens: Record<string, string> = {};

let visitors = 0;
const nextAddress = () => `10.66.${Math.floor(++visitors / 250)}.${(visitors % 250) + 1}`;
function call(method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, options: { token?: string; body?: unknown; ip?: string } = {}) {
  return server.app.inject({
    method,
    url,
    payload: options.body as object | undefined,
    remoteAddress: options.ip ?? nextAddress(),
    headers: { 'user-agent': UA, ...(options.token ? { authorization: `Bearer ${options.token}` } : {}) },
  });
}
const signIn = (email: string, password = PASSWORD, ip?: string) => call('POST', '/v3/sso/auth', { body: { email, password }, ip });
const events = (organizationId: string) =>
  server.database.db.select().from(organizationAuditEvents).where(eq(organizationAuditEvents.organizationId, organizationId)).orderBy(organizationAuditEvents.id);
const allEvents = () => server.database.db.select().from(organizationAuditEvents);
/** Factor-change entries are written beside the notice, without holding up the answer. */
async function eventually<T>(read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  const deadline = Date.now() + 3000;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
const list = (organizationId: string, token: string, query = '') => call('GET', `/v3/organizations/${organizationId}/audit-events${query}`, { token });
const exportCsv = (organizationId: string, token: string, query = '') => call('GET', `/v3/organizations/${organizationId}/audit-events.csv${query}`, { token });

beforeAll(async () => {
  server = await startTestServer({ clock });
  client = identityClient(server.app, server.database);
  organizations = createOrganizationService({ db: server.database.db, clock });
  for (const email of ['boss@acme.example', 'owner@acme.example', 'worker@acme.example', 'loner@example.com', 'chief@globex.example']) tokens[email] = await client.registeredUser(email, PASSWORD);
  acme = (await organizations.create({ name: 'Acme', adminEmail: 'boss@acme.example', adminUserId: null }))!.id;
  await organizations.addMember(acme, 'worker@acme.example');
  await organizations.addMember(acme, 'owner@acme.example');
  await organizations.addMember(acme, 'ghost@acme.example');
  await server.database.db.update(organizationMembers).set({ role: 'owner' }).where(eq(organizationMembers.email, 'owner@acme.example'));
  globex = (await organizations.create({ name: 'Globex', adminEmail: 'chief@globex.example', adminUserId: null }))!.id;
});
afterAll(() => server.close());

describe('the table is append-only', () => {
  it('refuses UPDATE, DELETE and TRUNCATE, whoever asks', async () => {
    await record({ db: server.database.db, clock }, { organizationId: globex, action: 'member_invited', actor: { email: 'chief@globex.example' }, target: { email: 'new@globex.example' }, detail: { role: 'member' } });
    const db = server.database.db;
    await expect(db.execute(sql`update organization_audit_events set action = 'sign_in'`)).rejects.toThrow();
    await expect(db.execute(sql`delete from organization_audit_events`)).rejects.toThrow();
    await expect(db.execute(sql`truncate organization_audit_events`)).rejects.toThrow();
    const failure = await db.execute(sql`delete from organization_audit_events`).catch((error: unknown) => error as Error & { cause?: Error });
    expect(String((failure as { cause?: Error }).cause?.message ?? failure)).toMatch(/append-only: DELETE refused/);
    const rows = await events(globex);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ action: 'member_invited', actorEmail: 'chief@globex.example', targetEmail: 'new@globex.example', detail: { role: 'member' } });
  });

  it('records every membership action and refuses an unknown one', async () => {
    for (const action of ['member_invited', 'member_joined', 'member_removed', 'member_left', 'role_changed', 'invitation_revoked'] as const) {
      await record({ db: server.database.db, clock }, { organizationId: globex, action, actor: { userId: null, email: 'Chief@Globex.example' }, target: { email: 'x@globex.example' } });
    }
    expect((await events(globex)).map((row) => row.action)).toContain('invitation_revoked');
    expect((await events(globex)).every((row) => row.actorEmail === 'chief@globex.example')).toBe(true);
    await expect(record({ db: server.database.db, clock }, { organizationId: globex, action: 'dropped_table' as never })).rejects.toThrow(/unknown audit action/);
  });
});

describe('recording inside a caller’s transaction', () => {
  it('keeps the entry with the change, and drops it when the change rolls back', async () => {
    const before = (await events(globex)).length;
    await expect(
      server.database.db.transaction(async (tx) => {
        await record({ db: tx, clock }, { organizationId: globex, action: 'member_removed', actor: { email: 'chief@globex.example' }, target: { email: 'gone@globex.example' } });
        throw new Error('the removal failed');
      }),
    ).rejects.toThrow('the removal failed');
    expect((await events(globex)).length).toBe(before);
    await server.database.db.transaction(async (tx) => {
      await record({ db: tx, clock }, { organizationId: globex, action: 'member_removed', actor: { email: 'chief@globex.example' }, target: { email: 'gone@globex.example' } });
    });
    expect((await events(globex)).length).toBe(before + 1);
  });
});

describe('recording the security events of members', () => {
  it('records a member’s sign-in with method, address and user agent, and nothing for a person in no organization', async () => {
    const before = (await allEvents()).length;
    expect((await signIn('loner@example.com')).statusCode).toBe(200);
    expect((await allEvents()).length).toBe(before);

    const response = await signIn('WORKER@acme.example', PASSWORD, '10.66.200.7');
    expect(response.statusCode).toBe(200);
    const last = (await events(acme)).at(-1)!;
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
    await eventually(() => events(acme), (rows) => rows.some((row) => row.action === 'two_factor_enabled'));

    const mfaToken = (await signIn('worker@acme.example')).json().mfa_token as string;
    expect(mfaToken).toBeTruthy();
    const wrongCode = String((Number(await code()) + 3) % 1_000_000).padStart(6, '0');
    expect((await call('POST', '/v3/sso/auth/mfa', { body: { mfa_token: mfaToken, code: wrongCode } })).statusCode).toBe(400);
    clock.advance(30_000);
    const second = await call('POST', '/v3/sso/auth/mfa', { body: { mfa_token: mfaToken, code: await code() } });
    expect(second.statusCode).toBe(200);
    clock.advance(30_000);
    expect((await call('POST', '/v3/sso/me/2fa/disable', { token, body: { password: PASSWORD, code: await code() } })).statusCode).toBe(204);

    const authenticator = new SoftAuthenticator(server.config.PLATFORM_ORIGIN);
    const options = (await call('POST', '/v3/sso/users/me/webauthn/enable/options', { token, body: { algorithms: ['es256'] } })).json();
    const added = await call('POST', '/v3/sso/users/me/webauthn/enable', { token, body: { response: authenticator.register(options) } });
    expect(added.statusCode).toBe(200);
    const signedIn = await call('POST', '/v3/sso/users/webauthn/auth', { body: { response: authenticator.assert((await call('POST', '/v3/sso/users/webauthn/auth/options', { body: {} })).json()) } });
    expect(signedIn.statusCode).toBe(200);
    expect((await call('DELETE', `/v3/sso/users/me/webauthn/${added.json().id}`, { token })).statusCode).toBe(204);

    const rows = await eventually(() => events(acme), (all) => all.some((row) => row.action === 'passkey_removed'));
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
    const db = server.database.db;
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
    const db = server.database.db;
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

describe('reading the log: owners and admins only', () => {
  it('tells each person which organizations they administer', async () => {
    const administered = async (email: string) => (await call('GET', '/v3/organizations/administered', { token: tokens[email] })).json();
    expect(await administered('boss@acme.example')).toEqual({ items: [{ id: acme, name: 'Acme', role: 'owner' }] }); // `npm run organizations -- create` makes its admin the owner
    expect(await administered('owner@acme.example')).toEqual({ items: [{ id: acme, name: 'Acme', role: 'owner' }] });
    expect(await administered('chief@globex.example')).toEqual({ items: [{ id: globex, name: 'Globex', role: 'owner' }] });
    expect(await administered('worker@acme.example')).toEqual({ items: [] });
    expect(await administered('loner@example.com')).toEqual({ items: [] });
    expect((await call('GET', '/v3/organizations/administered')).statusCode).toBe(401);
  });

  it('answers a member, an outsider and another organization’s admin 403 with a clear error', async () => {
    for (const [email, organization] of [['worker@acme.example', acme], ['loner@example.com', acme], ['chief@globex.example', acme], ['boss@acme.example', globex]] as const) {
      for (const response of [await list(organization, tokens[email]!), await exportCsv(organization, tokens[email]!)]) {
        expect(response.statusCode).toBe(403);
        expect(response.json()).toEqual({ code: 'audit.not_admin', message: 'Only an owner or admin of this organization can read its audit log' });
      }
    }
    expect((await list(acme, '')).statusCode).toBe(401);
    expect((await list('not-a-uuid', tokens['boss@acme.example']!)).statusCode).toBe(400);
  });

  it('lets the owner and the admin read it; the creator columns give no rights', async () => {
    expect((await list(acme, tokens['boss@acme.example']!)).statusCode).toBe(200);
    expect((await list(acme, tokens['owner@acme.example']!)).statusCode).toBe(200);
    expect((await list(globex, tokens['chief@globex.example']!)).json().items.length).toBeGreaterThan(0);
    // Without a membership row, the organization naming them as its creator gives nothing.
    const [chiefRow] = await server.database.db.delete(organizationMembers).where(eq(organizationMembers.email, 'chief@globex.example')).returning();
    try {
      expect((await list(globex, tokens['chief@globex.example']!)).json().code).toBe('audit.not_admin');
    } finally {
      await server.database.db.insert(organizationMembers).values(chiefRow!);
    }
    // A membership row decides: a demoted creator no longer reads the log.
    await server.database.db.update(organizationMembers).set({ role: 'member' }).where(eq(organizationMembers.email, 'boss@acme.example'));
    try {
      expect((await list(acme, tokens['boss@acme.example']!)).statusCode).toBe(403);
    } finally {
      await server.database.db.update(organizationMembers).set({ role: 'admin' }).where(eq(organizationMembers.email, 'boss@acme.example'));
    }
    expect((await server.database.db.select().from(organizationsTable).where(eq(organizationsTable.id, acme)))[0]!.adminEmail).toBe('boss@acme.example');
  });
});

describe('filters, paging and CSV', () => {
  let org: string;
  let admin: string;
  beforeAll(async () => {
    admin = await client.registeredUser('pager@paging.example', PASSWORD);
    org = (await organizations.create({ name: 'Paging Co', adminEmail: 'pager@paging.example', adminUserId: null }))!.id;
    const start = new Date('2026-03-01T10:00:00Z');
    for (let index = 0; index < 25; index += 1) {
      clock.set(new Date(start.getTime() + index * 3_600_000 * 12));
      await record(
        { db: server.database.db, clock },
        {
          organizationId: org,
          action: index % 5 === 0 ? 'sign_in_failed' : index % 5 === 1 ? 'role_changed' : 'sign_in',
          actor: { email: index % 2 ? 'odd_one@paging.example' : 'even@paging.example' },
          target: { email: index % 2 ? 'odd_one@paging.example' : 'even@paging.example' },
          origin: { ip: `192.0.2.${index}`, userAgent: index === 3 ? '=HYPERLINK("http://evil.example","x")' : UA },
          detail: index === 4 ? { note: 'say "hi",\nthen -1' } : { n: index },
        },
      );
    }
    clock.set(new Date());
  });

  it('pages newest first with a keyset cursor, never repeating or skipping an entry', async () => {
    const seen: string[] = [];
    let cursor = '';
    for (let pages = 0; pages < 10; pages += 1) {
      const response = await list(org, admin, `?limit=10${cursor ? `&cursor=${cursor}` : ''}`);
      expect(response.statusCode).toBe(200);
      const page = response.json();
      seen.push(...page.items.map((item: { id: string }) => item.id));
      if (!page.next_cursor) break;
      cursor = page.next_cursor;
    }
    expect(seen).toHaveLength(25);
    expect(new Set(seen).size).toBe(25);
    const first = (await list(org, admin, '?limit=3')).json();
    expect(first.items.map((item: { occurred_at: string }) => item.occurred_at)).toEqual(['2026-03-13T10:00:00.000Z', '2026-03-12T22:00:00.000Z', '2026-03-12T10:00:00.000Z']);
  });

  it('filters by actions, by person and by dates, alone and together', async () => {
    const items = async (query: string) => (await list(org, admin, query)).json().items as Array<{ action: string; target_email: string; occurred_at: string }>;
    expect((await items('?action=sign_in_failed')).length).toBe(5);
    expect((await items('?action=sign_in_failed,role_changed')).length).toBe(10);
    expect((await items('?email=ODD_ONE')).every((item) => item.target_email === 'odd_one@paging.example')).toBe(true);
    expect((await items('?email=odd_one')).length).toBe(12);
    // A typed % or _ matches itself, not anything.
    expect((await items('?email=%25')).length).toBe(0);
    expect((await items('?email=d_o')).length).toBe(12);
    expect((await items('?from=2026-03-05&to=2026-03-06')).map((item) => item.occurred_at)).toEqual(['2026-03-06T22:00:00.000Z', '2026-03-06T10:00:00.000Z', '2026-03-05T22:00:00.000Z', '2026-03-05T10:00:00.000Z']);
    expect((await items('?from=2026-03-05T12:00:00Z&to=2026-03-06T10:00:00Z')).length).toBe(2);
    expect((await items('?action=sign_in&email=even&from=2026-03-01&to=2026-03-03')).length).toBe(2);
  });

  it('answers bad filters 400 naming the field, and loses nothing', async () => {
    const refusal = async (query: string) => {
      const response = await list(org, admin, query);
      expect(response.statusCode).toBe(400);
      return response.json();
    };
    expect((await refusal('?action=sign_in,drop_table')).details.fields.action).toEqual({ code: 'audit.action_invalid', message: 'Unknown action: drop_table', params: { action: 'drop_table' } });
    expect((await refusal('?from=yesterday')).details.fields.from.code).toBe('audit.date_invalid');
    expect((await refusal('?to=2026-02-31')).details.fields.to.code).toBe('audit.date_invalid');
    expect((await refusal('?from=2026-03-06&to=2026-03-05')).details.fields.to).toEqual({ code: 'audit.date_range_invalid', message: 'Choose a start date before the end date' });
    expect((await refusal('?cursor=abc')).details.fields.cursor.code).toBe('audit.cursor_invalid');
    expect((await refusal('?limit=0')).code).toBe('validation_error');
    expect((await refusal(`?email=${'a'.repeat(300)}`)).details.fields.email.code).toBe('audit.email_invalid');
    // Bad input is a 400 for exports too, before anything is sent.
    expect((await exportCsv(org, admin, '?action=nope')).statusCode).toBe(400);
    expect((await list(org, admin)).json().items.length).toBe(25);
  });

  it('exports the filtered log as RFC 4180 CSV with formula cells defused', async () => {
    const response = await exportCsv(org, admin, '?email=odd_one');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(response.headers['content-disposition']).toMatch(/^attachment; filename="audit-log-\d{4}-\d{2}-\d{2}\.csv"$/);
    const lines = response.body.split('\r\n');
    expect(lines[0]).toBe('occurred_at,action,actor_email,actor_user_id,target_email,target_user_id,ip,user_agent,detail');
    expect(lines.at(-1)).toBe('');
    expect(lines).toHaveLength(1 + 12 + 1);
    expect(lines).toContain(`2026-03-02T22:00:00.000Z,sign_in,odd_one@paging.example,,odd_one@paging.example,,192.0.2.3,"'=HYPERLINK(""http://evil.example"",""x"")","{""n"":3}"`);
    const all = (await exportCsv(org, admin)).body;
    expect(all).toContain('"{""note"":""say \\""hi\\"",\\nthen -1""}"');
    expect(all.split('\r\n')).toHaveLength(1 + 25 + 1);
  });

  it('streams a log longer than one batch in order', async () => {
    // Signed up before the organization exists: its sign-in is in no log.
    const bigOwner = await client.registeredUser('chief-big@big.example', PASSWORD);
    const big = (await organizations.create({ name: 'Big', adminEmail: 'chief-big@big.example', adminUserId: null }))!.id;
    const base = new Date('2025-01-01T00:00:00Z').getTime();
    // 1,200 rows: three batches, written in one statement.
    await server.database.db.insert(organizationAuditEvents).values(Array.from({ length: 1200 }, (_, index) => ({ organizationId: big, occurredAt: new Date(base + Math.floor(index / 2) * 1000), action: 'sign_in', detail: { n: index } })));
    const lines = (await exportCsv(big, bigOwner)).body.split('\r\n').slice(1, -1);
    expect(lines).toHaveLength(1200);
    const numbers = lines.map((line) => Number(/"\{""n"":(\d+)\}"/.exec(line)![1]));
    expect(numbers[0]).toBe(1199);
    expect(numbers.at(-1)).toBe(0);
    expect(new Set(numbers).size).toBe(1200);
  });
});

describe('CSV cells', () => {
  it('quotes per RFC 4180 and defuses = + - @ TAB and CR at the start', () => {
    expect(csvCell('plain')).toBe('plain');
    expect(csvCell(null)).toBe('');
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell('say "x"')).toBe('"say ""x"""');
    expect(csvCell('two\nlines')).toBe('"two\nlines"');
    expect(csvCell('=1+2')).toBe("'=1+2");
    expect(csvCell('+1')).toBe("'+1");
    expect(csvCell('-1')).toBe("'-1");
    expect(csvCell('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(csvCell('\tx')).toBe("'\tx");
    expect(csvCell('\rx')).toBe('"\'\rx"');
    expect(csvCell('=a,"b"')).toBe('"\'=a,""b"""');
    expect(csvCell('a=b')).toBe('a=b');
    expect(csvRecord(['a', 'b,c', null])).toBe('a,"b,c",\r\n');
  });
});

describe('hostile cells in the CSV export', () => {
  /** What a spreadsheet runs as a formula: = + - @ (or their full-width forms), TAB or CR first, also behind spaces, line breaks and quotes. */
  const RUNS_AS_FORMULA = /^[\s"']*[=+\-@\uFF1D\uFF0B\uFF0D\uFF20]|^[\t\r]/;

  it('neutralises every cell a spreadsheet would run, whoever wrote it (a member’s user agent, stored emails and details)', async () => {
    const shop = acme;
    // A member signs in from a browser that names itself with a formula: the sign-in entry keeps it.
    const agents = ['"=HYPERLINK(""http://evil.example"",""open"")', '\uFF1D1+2', '"@SUM(1+1)*cmd|\' /C calc\'!A0'];
    for (const agent of agents) {
      const response = await server.app.inject({ method: 'POST', url: '/v3/sso/auth', payload: { email: 'worker@acme.example', password: PASSWORD }, remoteAddress: nextAddress(), headers: { 'user-agent': agent } });
      expect(response.statusCode).toBe(200);
    }
    // Stored values a header cannot carry (leading spaces and line breaks).
    const hostile = [' =1+2', '\n+cmd|calc', '  -2+3', '\t=x', '\r@x', "'=already text"];
    await server.database.db.insert(organizationAuditEvents).values(
      hostile.map((value, index) => ({ organizationId: shop, occurredAt: new Date(Date.UTC(2026, 4, 1, 0, 0, index)), action: 'sign_in' as const, actorEmail: value, targetEmail: value, userAgent: value, detail: {} })),
    );
    const sawAll = await eventually(
      async () => (await events(shop)).filter((row) => row.userAgent && agents.includes(row.userAgent)).length,
      (count) => count === agents.length,
    );
    expect(sawAll).toBe(agents.length);

    const { parse } = await import('csv-parse/sync');
    const response = await exportCsv(shop, tokens['boss@acme.example']!);
    expect(response.statusCode).toBe(200);
    const rows = parse(response.body, { relax_column_count: false }) as string[][];
    // Every record whole: a line break inside a cell never starts a new row.
    expect(rows.every((row) => row.length === 9)).toBe(true);
    const cells = rows.slice(1).flat();
    for (const value of [...agents, ...hostile.slice(0, -1)]) expect(cells).toContain(`'${value}`);
    expect(cells).toContain("'=already text");
    expect(cells.filter((cell) => RUNS_AS_FORMULA.test(cell) && !cell.startsWith("'"))).toEqual([]);
  });
});
