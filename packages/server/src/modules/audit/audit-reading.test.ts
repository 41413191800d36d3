import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { auditTestServer, eventually, PASSWORD, UA } from '../../../test/audit';
import { organizationAuditEvents, organizationMembers, organizations as organizationsTable } from '../../db/schema';
import { record } from './service';

/**
 * The organizations' audit log as its owners and admins read it: who may, filters, keyset paging,
 * and the CSV export with every cell a spreadsheet would run defused.
 */
const audit = auditTestServer();
const { clock, tokens, nextAddress, call, events, list, exportCsv } = audit;

describe('reading the log: owners and admins only', () => {
  // Globex's log has an entry to read (the recording tests leave theirs in their own server's log).
  beforeAll(() => record({ db: audit.server.database.db, clock }, { organizationId: audit.globex, action: 'member_invited', actor: { email: 'chief@globex.example' }, target: { email: 'new@globex.example' } }));

  it('tells each person which organizations they administer', async () => {
    const administered = async (email: string) => (await call('GET', '/v3/organizations/administered', { token: tokens[email] })).json();
    expect(await administered('boss@acme.example')).toEqual({ items: [{ id: audit.acme, name: 'Acme', role: 'owner' }] }); // `npm run audit.organizations -- create` makes its admin the owner
    expect(await administered('owner@acme.example')).toEqual({ items: [{ id: audit.acme, name: 'Acme', role: 'owner' }] });
    expect(await administered('chief@globex.example')).toEqual({ items: [{ id: audit.globex, name: 'Globex', role: 'owner' }] });
    expect(await administered('worker@acme.example')).toEqual({ items: [] });
    expect(await administered('loner@example.com')).toEqual({ items: [] });
    expect((await call('GET', '/v3/organizations/administered')).statusCode).toBe(401);
  });

  it('answers a member, an outsider and another organization’s admin 403 with a clear error', async () => {
    for (const [email, organization] of [['worker@acme.example', audit.acme], ['loner@example.com', audit.acme], ['chief@globex.example', audit.acme], ['boss@acme.example', audit.globex]] as const) {
      for (const response of [await list(organization, tokens[email]!), await exportCsv(organization, tokens[email]!)]) {
        expect(response.statusCode).toBe(403);
        expect(response.json()).toEqual({ code: 'audit.not_admin', message: 'Only an owner or admin of this organization can read its audit log' });
      }
    }
    expect((await list(audit.acme, '')).statusCode).toBe(401);
    expect((await list('not-a-uuid', tokens['boss@acme.example']!)).statusCode).toBe(400);
  });

  it('lets the owner and the admin read it; the creator columns give no rights', async () => {
    expect((await list(audit.acme, tokens['boss@acme.example']!)).statusCode).toBe(200);
    expect((await list(audit.acme, tokens['owner@acme.example']!)).statusCode).toBe(200);
    expect((await list(audit.globex, tokens['chief@globex.example']!)).json().items.length).toBeGreaterThan(0);
    // Without a membership row, the organization naming them as its creator gives nothing.
    const [chiefRow] = await audit.server.database.db.delete(organizationMembers).where(eq(organizationMembers.email, 'chief@globex.example')).returning();
    try {
      expect((await list(audit.globex, tokens['chief@globex.example']!)).json().code).toBe('audit.not_admin');
    } finally {
      await audit.server.database.db.insert(organizationMembers).values(chiefRow!);
    }
    // A membership row decides: a demoted creator no longer reads the log.
    await audit.server.database.db.update(organizationMembers).set({ role: 'member' }).where(eq(organizationMembers.email, 'boss@acme.example'));
    try {
      expect((await list(audit.acme, tokens['boss@acme.example']!)).statusCode).toBe(403);
    } finally {
      await audit.server.database.db.update(organizationMembers).set({ role: 'admin' }).where(eq(organizationMembers.email, 'boss@acme.example'));
    }
    expect((await audit.server.database.db.select().from(organizationsTable).where(eq(organizationsTable.id, audit.acme)))[0]!.adminEmail).toBe('boss@acme.example');
  });
});

describe('filters, paging and CSV', () => {
  let org: string;
  let admin: string;
  beforeAll(async () => {
    admin = await audit.client.registeredUser('pager@paging.example', PASSWORD);
    org = (await audit.organizations.create({ name: 'Paging Co', adminEmail: 'pager@paging.example', adminUserId: null }))!.id;
    const start = new Date('2026-03-01T10:00:00Z');
    for (let index = 0; index < 25; index += 1) {
      clock.set(new Date(start.getTime() + index * 3_600_000 * 12));
      await record(
        { db: audit.server.database.db, clock },
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
    const bigOwner = await audit.client.registeredUser('chief-big@big.example', PASSWORD);
    const big = (await audit.organizations.create({ name: 'Big', adminEmail: 'chief-big@big.example', adminUserId: null }))!.id;
    const base = new Date('2025-01-01T00:00:00Z').getTime();
    // 1,200 rows: three batches, written in one statement.
    await audit.server.database.db.insert(organizationAuditEvents).values(Array.from({ length: 1200 }, (_, index) => ({ organizationId: big, occurredAt: new Date(base + Math.floor(index / 2) * 1000), action: 'sign_in', detail: { n: index } })));
    const lines = (await exportCsv(big, bigOwner)).body.split('\r\n').slice(1, -1);
    expect(lines).toHaveLength(1200);
    const numbers = lines.map((line) => Number(/"\{""n"":(\d+)\}"/.exec(line)![1]));
    expect(numbers[0]).toBe(1199);
    expect(numbers.at(-1)).toBe(0);
    expect(new Set(numbers).size).toBe(1200);
  });
});

describe('hostile cells in the CSV export', () => {
  /** What a spreadsheet runs as a formula: = + - @ (or their full-width forms), TAB or CR first, also behind spaces, line breaks and quotes. */
  const RUNS_AS_FORMULA = /^[\s"']*[=+\-@\uFF1D\uFF0B\uFF0D\uFF20]|^[\t\r]/;

  it('neutralises every cell a spreadsheet would run, whoever wrote it (a member’s user agent, stored emails and details)', async () => {
    const shop = audit.acme;
    // A member signs in from a browser that names itself with a formula: the sign-in entry keeps it.
    const agents = ['"=HYPERLINK(""http://evil.example"",""open"")', '\uFF1D1+2', '"@SUM(1+1)*cmd|\' /C calc\'!A0'];
    for (const agent of agents) {
      const response = await audit.server.app.inject({ method: 'POST', url: '/v3/sso/auth', payload: { email: 'worker@acme.example', password: PASSWORD }, remoteAddress: nextAddress(), headers: { 'user-agent': agent } });
      expect(response.statusCode).toBe(200);
    }
    // Stored values a header cannot carry (leading spaces and line breaks).
    const hostile = [' =1+2', '\n+cmd|calc', '  -2+3', '\t=x', '\r@x', "'=already text"];
    await audit.server.database.db.insert(organizationAuditEvents).values(
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
