import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { apiKeys, users } from '../../db/schema';
import { identityClient } from '../../../test/identity';
import { startTestServer, type TestServer } from '../../../test/harness';
import { createNotification } from '../notifications';

let server: TestServer;
let client: ReturnType<typeof identityClient>;
let token: string;

beforeAll(async () => {
  server = await startTestServer();
  client = identityClient(server.app, server.database);
  token = await client.registeredUser('profile@example.com');
});
afterAll(() => server.close());

const auth = (as = token) => ({ authorization: `Bearer ${as}` });
/** The profile of `as` (by default the file's person) set to `body` over the defaults. */
const putMe = (body: Record<string, unknown>, as = token) =>
  server.app.inject({ method: 'PUT', url: '/v3/sso/me', headers: auth(as), payload: { full_name: 'Profile Person', language: 'en', ...body } });

describe('profile rules (the spec validation rules)', () => {
  it.each([
    ['full_name', '', 'This field may not be blank.'],
    ['full_name', '   ', 'This field may not be blank.'],
    ['phone', '+84 912', 'Enter a phone number of digits only'],
    ['phone', '09abc', 'Enter a phone number of digits only'],
    ['company', 'Acme, Inc.', 'Enter a company name of letters and digits only'],
    ['organization', 'Org#1', 'Enter an organization name of letters and digits only'],
    ['address', '12/3 Main-street', 'Enter an address of letters and digits only'],
    // "Alphanumeric only" is A to Z and 0 to 9: no spaces, no letters of other scripts or other digits.
    ['company', 'Acme Corp', 'Enter a company name of letters and digits only'],
    ['company', 'Công ty', 'Enter a company name of letters and digits only'],
    ['organization', 'Ａｃｍｅ', 'Enter an organization name of letters and digits only'],
    ['address', '12 Nguyễn Trãi', 'Enter an address of letters and digits only'],
    ['address', '١٢', 'Enter an address of letters and digits only'],
    ['username', 'john.doe', 'Enter a username of letters and digits only'],
    ['username', 'jo hn', 'Enter a username of letters and digits only'],
  ])('refuses %s = %j with the field message', async (field, value, message) => {
    const response = await putMe({ [field]: value });
    expect(response.statusCode).toBe(400);
    expect(response.json().code).toBe('validation_error');
    expect(response.json().details.fields[field].message).toBe(message);
    expect(response.json().details.fields[field].code).toMatch(/^(account\.)?validation\./);
  });

  it('accepts a name of any script, the alphanumeric fields in A to Z and digits, and stores them', async () => {
    const profile = {
      full_name: 'Nguyễn Văn A',
      username: 'nguyenvana1',
      phone: '0912345678',
      company: 'CongtyAnToan2',
      organization: 'CyStack',
      address: '12NguyenTrai',
      country: 'VN',
      language: 'vi',
    };
    const response = await putMe(profile);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ ...profile, customer_language: 'vi' });
    expect(response.cookies.find((cookie) => cookie.name === 'lang')?.value).toBe('vi');
  });

  it('keeps absent fields and clears empty ones', async () => {
    const kept = await putMe({});
    expect(kept.json().phone).toBe('0912345678');
    const cleared = await putMe({ phone: '', company: null });
    expect(cleared.json()).toMatchObject({ phone: null, company: null, organization: 'CyStack' });
  });

  it('refuses a username another account has, whatever its case', async () => {
    const other = await client.registeredUser('other-profile@example.com');
    const taken = await putMe({ full_name: 'Other', username: 'NguyenVanA1' }, other);
    expect(taken.statusCode).toBe(400);
    expect(taken.json().details.fields.username).toEqual({ code: 'account.username_taken', message: 'This username is already taken' });
  });
});

describe('privacy and export', () => {
  it('reads and changes the privacy choices', async () => {
    const before = await server.app.inject({ url: '/v3/sso/me/privacy', headers: auth() });
    expect(before.json()).toEqual({ marketing_emails: false, usage_data: true });
    const changed = await server.app.inject({ method: 'PUT', url: '/v3/sso/me/privacy', headers: auth(), payload: { marketing_emails: true, usage_data: false } });
    expect(changed.json()).toEqual({ marketing_emails: true, usage_data: false });
    expect((await server.app.inject({ url: '/v3/sso/me/privacy', headers: auth() })).json()).toEqual({ marketing_emails: true, usage_data: false });
    const bad = await server.app.inject({ method: 'PUT', url: '/v3/sso/me/privacy', headers: auth(), payload: { marketing_emails: 'yes' } });
    expect(bad.statusCode).toBe(400);
  });

  it('exports every piece of personal data as a JSON attachment, without hashes or secrets', async () => {
    const created = await server.app.inject({ method: 'POST', url: '/v3/sso/me/api-keys', headers: auth(), payload: { name: 'CI', scopes: ['me:read'] } });
    const { key } = created.json();
    const [user] = await server.database.db.select().from(users).where(eq(users.email, 'profile@example.com'));
    await createNotification({ db: server.database.db, clock: { now: () => new Date() } }, user!.id, { type: 'reports', title: 'New report', metadata: { report_id: 'r1' } });

    const response = await server.app.inject({ url: '/v3/sso/me/export', headers: auth() });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toContain('application/json');
    expect(response.headers['content-disposition']).toMatch(/^attachment; filename="account-data-\d{4}-\d{2}-\d{2}\.json"$/);
    const data = response.json();
    expect(data.user).toMatchObject({ email: 'profile@example.com', full_name: 'Profile Person', phone: null, privacy: { marketing_emails: true, usage_data: false } });
    expect(data.sessions.length).toBeGreaterThanOrEqual(1);
    expect(data.sessions[0]).toHaveProperty('browser');
    expect(data.api_keys).toEqual([expect.objectContaining({ name: 'CI', prefix: key.slice(3, 11), scopes: ['me:read'] })]);
    expect(data.notifications.map((n: { title: string }) => n.title)).toContain('New report');
    expect(data.passkeys).toEqual([]);

    const [keyRow] = await server.database.db.select().from(apiKeys).where(eq(apiKeys.userId, user!.id));
    for (const secret of [user!.passwordHash!, keyRow!.keyHash, key, token]) expect(response.body).not.toContain(secret);
    expect(response.body).not.toMatch(/password_hash|token_hash|key_hash|totp_secret|public_key/);
  });

  it('exports only for a signed-in session', async () => {
    expect((await server.app.inject({ url: '/v3/sso/me/export' })).statusCode).toBe(401);
  });
});
