import fc from 'fast-check';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorBodySchema } from '@portal/contracts';
import { identityClient } from '../test/identity';
import { startTestServer, type TestServer } from '../test/harness';

/**
 * Fuzzing every /v3 route of the OpenAPI document with fast-check (a fixed seed, so a
 * failure replays): schema-shaped and schema-breaking bodies (wrong types, nulls, huge and
 * unicode strings, extra fields, bad JSON, wrong content types), odd path parameters and
 * query strings, and missing, forged or valid session tokens and cookies. Each answer must
 * be below 500; each refusal must carry the spec's error body ({code, message, details?});
 * and a refused request must change no row (the database's digest before and after, less
 * the columns a refusal is meant to move: a code's guess counter, a session's last use).
 *
 * FUZZ_RUNS raises the number of requests per route, FUZZ_SEED picks another sequence:
 * `FUZZ_RUNS=50 FUZZ_SEED=$RANDOM npx vitest run packages/server/src/api-fuzz.test.ts`.
 */

const SEED = Number(process.env.FUZZ_SEED ?? 20261123);
const RUNS_PER_OPERATION = Number(process.env.FUZZ_RUNS ?? 6);

type JsonSchema = {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  enum?: unknown[];
  const?: unknown;
  format?: string;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  minLength?: number;
  maxLength?: number;
  pattern?: string;
};

interface Operation {
  method: string;
  path: string;
  body?: JsonSchema;
  auth: boolean;
}

/** A value shaped like the schema (valid enough to reach the handler, most of the time). */
function shaped(schema: JsonSchema | undefined, depth = 0): fc.Arbitrary<unknown> {
  if (!schema || depth > 4) return fc.anything({ maxDepth: 1 });
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (schema.enum?.length) return fc.constantFrom(...schema.enum);
  const variants = schema.anyOf ?? schema.oneOf;
  if (variants?.length) return fc.oneof(...variants.map((variant) => shaped(variant, depth + 1)));
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
  switch (type) {
    case 'object': {
      const properties = schema.properties ?? {};
      const record: Record<string, fc.Arbitrary<unknown>> = {};
      for (const [name, property] of Object.entries(properties)) record[name] = shaped(property, depth + 1);
      return fc.record(record, { requiredKeys: (schema.required ?? []).filter((key) => key in properties) });
    }
    case 'array':
      return fc.array(shaped(schema.items, depth + 1), { maxLength: 3 });
    case 'integer':
      return fc.oneof(fc.integer({ min: -5, max: 1000 }), fc.constant(0));
    case 'number':
      return fc.double({ noNaN: true, min: -1e6, max: 1e6 });
    case 'boolean':
      return fc.boolean();
    case 'string':
      if (schema.format === 'email') return fc.oneof(fc.emailAddress(), fc.constant('fuzz@example.com'));
      if (/^\^?\\d\{6\}\$?$/.test(schema.pattern ?? '') || schema.maxLength === 6) return fc.stringMatching(/^\d{6}$/);
      return fc.oneof(
        fc.string({ minLength: schema.minLength ?? 0, maxLength: Math.min(schema.maxLength ?? 40, 40) }),
        fc.constant('plum-orbit-cactus-917'),
        fc.constant('fuzz@example.com'),
      );
    default:
      return fc.anything({ maxDepth: 1 });
  }
}

/** Values a schema never allows. */
const hostile: fc.Arbitrary<unknown> = fc.oneof(
  fc.constant(null),
  fc.constant(''),
  fc.string({ unit: 'grapheme', maxLength: 30 }),
  fc.string({ unit: 'binary', maxLength: 30 }),
  fc.constant('x'.repeat(20_000)),
  fc.constant('\u0000\u202e\ud800'),
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.array(fc.anything({ maxDepth: 1 }), { maxLength: 3 }),
  fc.dictionary(fc.string({ maxLength: 8 }), fc.anything({ maxDepth: 1 }), { maxKeys: 3 }),
  fc.constant({ __proto__: { admin: true }, constructor: { prototype: { admin: true } } }),
);

/** A body that breaks the schema: a field of the wrong type, an extra field, or no object at all. */
function broken(schema: JsonSchema | undefined): fc.Arbitrary<unknown> {
  const names = Object.keys(schema?.properties ?? {});
  const wrongField = names.length
    ? fc.tuple(shaped(schema), fc.constantFrom(...names), hostile).map(([value, name, bad]) => ({ ...(value as object), [name]: bad }))
    : hostile;
  const extraField = fc.tuple(shaped(schema), fc.string({ minLength: 1, maxLength: 12 }), hostile).map(([value, name, bad]) =>
    typeof value === 'object' && value !== null ? { ...(value as object), [name]: bad } : value,
  );
  return fc.oneof(wrongField, extraField, hostile);
}

type Payload = { kind: 'json'; value: unknown } | { kind: 'raw'; contentType: string; text: string } | { kind: 'none' };

function payloads(schema: JsonSchema | undefined): fc.Arbitrary<Payload> {
  return fc.oneof(
    { weight: 3, arbitrary: shaped(schema).map((value): Payload => ({ kind: 'json', value })) },
    { weight: 3, arbitrary: broken(schema).map((value): Payload => ({ kind: 'json', value })) },
    {
      weight: 1,
      arbitrary: fc
        .tuple(fc.constantFrom('application/json', 'text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/xml'), fc.constantFrom('{', '{"a":', 'null', '[]', '"', 'a=1&b=2', '<x/>', '\u0000', '{"__proto__":{"x":1}}'))
        .map(([contentType, text]): Payload => ({ kind: 'raw', contentType, text })),
    },
    { weight: 1, arbitrary: fc.constant<Payload>({ kind: 'none' }) },
  );
}

type Credential = 'none' | 'valid' | 'forged-bearer' | 'forged-cookie' | 'garbage-header';

const pathValue = fc.oneof(
  fc.constantFrom('1', '0', '-1', '00000000-0000-0000-0000-000000000000', 'me', '..', '%00', '%E2%80%AE', 'a'.repeat(600), "' or 1=1--"),
  fc.string({ minLength: 1, maxLength: 20 }).map((value) => encodeURIComponent(value)),
);

const queryString = fc.oneof(
  fc.constant(''),
  fc.dictionary(fc.string({ minLength: 1, maxLength: 10 }), fc.string({ maxLength: 20 }), { maxKeys: 3 }).map((query) => `?${new URLSearchParams(query)}`),
  fc.constantFrom('?limit=-1', '?limit=abc&offset=1e99', '?page=%00', '?cursor=' + 'z'.repeat(3000), '?lang[]=x'),
);

let server: TestServer;
let operations: Operation[] = [];
let token = '';
const EMAIL = 'fuzz-owner@example.com';
const PASSWORD = 'plum-orbit-cactus-917';

/** Columns a refusal is meant to move (not state a refused request may change). */
const MOVING_COLUMNS: Record<string, string[]> = {
  // A wrong code counts against the code (bounded guessing): the refusal's purpose.
  one_time_tokens: ['attempts'],
  // Any authenticated request touches its session's last use, refused or not.
  sessions: ['last_active_at'],
};
/** Tables a refusal is meant to write (the operators' dashboard counts failed sign-ins and lockouts). */
const MOVING_TABLES = new Set(['__drizzle_migrations', 'rate_limits', 'rate_limit_counters', 'sign_in_attempts', 'captcha_replays', 'dashboard_counters']);

async function tableNames(): Promise<string[]> {
  const result = await server.database.db.execute(sql`select table_name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE' order by table_name`);
  return (result.rows as Array<{ table_name: string }>).map((row) => row.table_name).filter((name) => !MOVING_TABLES.has(name));
}

let tables: string[] = [];
const columns = new Map<string, string[]>();

/** One digest per table of every row, less the moving columns. */
async function digest(): Promise<Record<string, string>> {
  const parts = tables.map((table) => {
    const kept = columns.get(table)!.map((column) => `t.${JSON.stringify(column)}`).join(', ');
    return `select '${table}' as name, coalesce(md5(string_agg(md5(row(${kept})::text), ',' order by md5(row(${kept})::text))), '') as hash from ${JSON.stringify(table)} t`;
  });
  const result = await server.database.db.execute(sql.raw(parts.join(' union all ')));
  return Object.fromEntries((result.rows as Array<{ name: string; hash: string }>).map((row) => [row.name, row.hash]));
}

beforeAll(async () => {
  // Bank deposits, WHC withdrawals and partner transfers on, so their routes are fuzzed past the 503 that answers when they are off.
  server = await startTestServer({
    env: {
      RATE_LIMITS: '',
      VIETQR_BANK_BIN: '970436',
      VIETQR_ACCOUNT_NUMBER: '0071001234567',
      VIETQR_ACCOUNT_NAME: 'PORTAL',
      BANK_WEBHOOK_SECRET: 'fuzz-bank-webhook-secret-0123456789abcdef',
      // WHC withdrawals on (past their 503); no chain listens there and no job runs: a request never reaches it.
      WHC_CHAIN_RPC_URL: 'http://127.0.0.1:9',
      WHC_TOKEN_ADDRESS: '0x000000000000000000000000000000000000dEaD',
      WHC_SIGNER_KEY: `0x${'4c'.repeat(32)}`,
      // WHC deposit addresses on too (made from this key without the chain; the follower does not run).
      WHC_DEPOSIT_XPUB: 'xpub6FALsbGyezYrpyZFavXX4KcWaKjg44X2QHkTWy5yfkH4fUxTDnjfSmD967tSqdZC5oNAnFovVpgtXcxRwust6ciT5Hc6pzADioEMMV5hNhn',
      WHC_CHAIN_POLL_SECONDS: '0',
      // Transfers to a partner exchange on (past their 503); no partner listens there and the retry job does not run.
      PARTNER_EXCHANGE_URL: 'http://127.0.0.1:9',
      PARTNER_EXCHANGE_SECRET: 'fuzz-partner-exchange-secret-0123456789abcdef',
      PARTNER_EXCHANGE_RETRY_SECONDS: '0',
    },
  });
  const doc = (await server.app.inject('/v3/openapi.json')).json() as {
    paths: Record<string, Record<string, { security?: unknown[]; requestBody?: { content?: Record<string, { schema?: JsonSchema }> } }>>;
  };
  for (const [path, methods] of Object.entries(doc.paths)) {
    for (const [method, operation] of Object.entries(methods)) {
      if (!['get', 'post', 'put', 'patch', 'delete'].includes(method)) continue;
      operations.push({
        method: method.toUpperCase(),
        path,
        body: operation.requestBody?.content?.['application/json']?.schema,
        auth: Boolean(operation.security?.length),
      });
    }
  }
  operations = operations.sort((a, b) => `${a.path} ${a.method}`.localeCompare(`${b.path} ${b.method}`));
  token = await identityClient(server.app, server.database).registeredUser(EMAIL, PASSWORD);
  tables = await tableNames();
  for (const table of tables) {
    const result = await server.database.db.execute(sql`select column_name from information_schema.columns where table_schema = 'public' and table_name = ${table} order by ordinal_position`);
    const moving = MOVING_COLUMNS[table] ?? [];
    columns.set(
      table,
      (result.rows as Array<{ column_name: string }>).map((row) => row.column_name).filter((column) => !moving.includes(column)),
    );
  }
}, 60_000);

afterAll(async () => {
  await server?.close();
});

/** A fresh session for the owner when a fuzzed request ended the last one (sign-out, password change, deletion). */
async function validToken(): Promise<string> {
  const check = await server.app.inject({ url: '/v3/sso/me', headers: { authorization: `Bearer ${token}` } });
  if (check.statusCode === 200) return token;
  const signIn = await server.app.inject({ method: 'POST', url: '/v3/sso/auth', payload: { email: EMAIL, password: PASSWORD }, remoteAddress: '127.9.9.9' });
  if (signIn.statusCode === 200) token = signIn.json().token as string;
  return token;
}

describe('fuzzing every /v3 route from the OpenAPI document', () => {
  it('reads the document', () => {
    expect(operations.length).toBeGreaterThan(40);
  });

  it('never answers 500 or more, refuses in the spec error shape, and a refusal changes no row', { timeout: 240_000 }, async () => {
    const failures: string[] = [];
    let requests = 0;
    let refusals = 0;
    // The digest taken after the last refusal, while nothing has written since: the next
    // request's "before" (a digest reads every row of every table, twice per refusal otherwise).
    // Reused only when no sign-in (validToken) came between. A write it missed would show as a
    // change and fail the test; it cannot hide one.
    let unchanged: Record<string, string> | null = null;
    for (const operation of operations) {
      const request = fc.record({
        params: fc.array(pathValue, { minLength: 4, maxLength: 4 }),
        query: queryString,
        payload: payloads(operation.body),
        credential: fc.constantFrom<Credential>('none', 'valid', 'valid', 'forged-bearer', 'forged-cookie', 'garbage-header'),
      });
      const samples = fc.sample(request, { seed: SEED + requests, numRuns: RUNS_PER_OPERATION });
      for (const sample of samples) {
        let index = 0;
        const path = operation.path.replace(/\{[^}]+\}/g, () => sample.params[index++ % 4]!);
        const headers: Record<string, string> = { 'user-agent': 'fuzz' };
        const tokenBefore = token;
        if (sample.credential === 'valid') headers.authorization = `Bearer ${await validToken()}`;
        if (sample.credential === 'forged-bearer') headers.authorization = `Bearer ${token.slice(0, -4)}AAAA`;
        if (sample.credential === 'forged-cookie') headers.cookie = `auth_token=${'A'.repeat(43)}; auth_display_name=%E0%A4%A`;
        if (sample.credential === 'garbage-header') headers.authorization = 'Basic \u0000\u00ff';
        let payload: string | undefined;
        if (sample.payload.kind === 'json' && operation.method !== 'GET' && operation.method !== 'DELETE') {
          headers['content-type'] = 'application/json';
          payload = JSON.stringify(sample.payload.value) ?? 'null';
        } else if (sample.payload.kind === 'raw' && operation.method !== 'GET') {
          headers['content-type'] = sample.payload.contentType;
          payload = sample.payload.text;
        }
        // Mail goes out after the answer (sendInBackground): the last request's must have landed before the digest, and this one's before the next.
        await server.mailer.settled();
        const before = unchanged && token === tokenBefore ? unchanged : await digest();
        unchanged = null;
        const response = await server.app.inject({
          method: operation.method as 'GET',
          url: `/v3${path}${sample.query}`,
          headers,
          payload,
          remoteAddress: `127.8.${requests % 250}.${(requests >> 8) % 250}`,
        });
        requests += 1;
        const label = `${operation.method} ${operation.path} as ${operation.method} /v3${path}${sample.query.slice(0, 60)} [${sample.credential}] ${(payload ?? '').slice(0, 120)}`;
        if (response.statusCode >= 500) {
          failures.push(`${response.statusCode} for ${label}: ${response.body.slice(0, 200)}`);
          continue;
        }
        if (response.statusCode < 400) continue;
        refusals += 1;
        let body: unknown;
        try {
          body = response.json();
        } catch {
          body = response.body;
        }
        if (!errorBodySchema.safeParse(body).success) failures.push(`${response.statusCode} not in the error shape for ${label}: ${response.body.slice(0, 200)}`);
        await server.mailer.settled();
        const after = await digest();
        unchanged = after;
        const changed = Object.keys(after).filter((table) => after[table] !== before[table]);
        if (changed.length) failures.push(`${response.statusCode} changed ${changed.join(', ')} for ${label}`);
      }
    }
    console.log(`api fuzz: ${operations.length} operations, ${requests} requests, ${refusals} refusals, seed ${SEED}`);
    expect(failures).toEqual([]);
  });
});
