import { sql, type SQL } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { AppError } from '../../platform/errors';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const LIMIT = 50;

/** What company SSO (which owns domains and connections) tells the console; wired in app.ts, so neither module imports the other here. */
export interface OrganizationSsoView {
  operatorView(organizationId: string): Promise<{
    domains: Array<{ domain: string; verified_at: string | null; verified_by: string | null; claimed_at: string }>;
    connection: { kind: 'oidc' | 'saml'; identifier: string; idp: string | null; require_sso: boolean; updated_at: string } | null;
  }>;
  verifyDomainByOperator(organizationId: string, domain: string): Promise<{ domain: string; verified_at: string | null; verified_by: string | null; claimed_at: string }>;
}

interface SummaryRow {
  id: string;
  name: string;
  admin_email: string;
  members: number;
  verified_domains: number;
  sso: 'oidc' | 'saml' | null;
  created_at: Date | string;
}

async function rows<T>(db: Database, query: SQL): Promise<T[]> {
  return ((await db.execute(query)) as unknown as { rows: T[] }).rows;
}

const iso = (value: Date | string) => (value instanceof Date ? value : new Date(value)).toISOString();
const summary = (row: SummaryRow) => ({ ...row, members: Number(row.members), verified_domains: Number(row.verified_domains), created_at: iso(row.created_at) });

/**
 * Organizations in the operators' console: search (name, id, a domain, a member's email), one
 * organization with its members, domains and SSO status, and a domain verified by hand.
 */
export function organizationConsole(deps: { db: Database; sso: OrganizationSsoView }) {
  const { db, sso } = deps;
  const summaryOf = (where: SQL) =>
    rows<SummaryRow>(
      db,
      sql`select o.id, o.name, o.admin_email,
          (select count(*)::int from organization_members m where m.organization_id = o.id) as members,
          (select count(*)::int from company_sso_domains d where d.organization_id = o.id and d.verified_at is not null) as verified_domains,
          (select c.kind from company_sso_connections c where c.organization_id = o.id) as sso,
          o.created_at
        from organizations o where ${where} order by o.created_at desc limit ${LIMIT}`,
    );

  return {
    async search(query: string | undefined) {
      const value = (query ?? '').trim().toLowerCase();
      const pattern = `%${value.replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
      const where = !value
        ? sql`true`
        : UUID.test(value)
          ? sql`o.id = ${value}`
          : value.includes('@')
            ? sql`o.id in (select m.organization_id from organization_members m where m.email = ${value}) or lower(o.admin_email) = ${value}`
            : sql`lower(o.name) like ${pattern} or o.id in (select d.organization_id from company_sso_domains d where d.domain = ${value})`;
      return { organizations: (await summaryOf(where)).map(summary) };
    },

    async get(id: string) {
      const [found] = await summaryOf(sql`o.id = ${id}`);
      if (!found) throw new AppError('admin.not_found');
      const [members, view] = await Promise.all([
        rows<{ email: string; user_id: string | null; role: 'owner' | 'admin' | 'member'; created_at: Date | string }>(
          db,
          sql`select email, user_id, role, created_at from organization_members where organization_id = ${id} order by created_at, email limit 1000`,
        ),
        sso.operatorView(id),
      ]);
      return {
        ...summary(found),
        member_list: members.map((member) => ({ email: member.email, user_id: member.user_id, role: member.role, joined_at: iso(member.created_at) })),
        domains: view.domains,
        sso_connection: view.connection,
      };
    },

    async verifyDomain(id: string, domain: string) {
      const [found] = await rows<{ id: string }>(db, sql`select id from organizations where id = ${id}`);
      if (!found) throw new AppError('admin.not_found');
      return sso.verifyDomainByOperator(id, domain);
    },
  };
}

export type OrganizationConsole = ReturnType<typeof organizationConsole>;
