import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { accountEndpoints, apiKeyEndpoints, DEVICE_COOKIE, mfaEndpoints, DEVICE_EXPIRY_HEADER, DEVICE_ID_HEADER } from '@portal/contracts';
import { ApiError, apiRequest, call, configureApi, errorText, fieldErrors, fieldErrorText, setReauthPrompt, type RequestOptions, type ToastKind } from './api';
import { deleteCookie, readCookie, writeCookie } from './cookies';
import { deviceExpiry } from './device-id';
import { i18n, initI18n, loadCatalogue, loadPagesCatalogue } from './i18n';
import { recordCookieWrites } from '../test/cookies';

type Options = Omit<RequestOptions, 'method' | 'body'>;
/** Requests by method, as the declared calls make them: the policy under test does not depend on the endpoint. */
const api = {
  get: (path: string, options?: Options) => apiRequest(path, { ...options, method: 'GET' }),
  delete: (path: string, options?: Options) => apiRequest(path, { ...options, method: 'DELETE' }),
  post: (path: string, body?: unknown, options?: Options) => apiRequest(path, { ...options, method: 'POST', body }),
  put: (path: string, body?: unknown, options?: Options) => apiRequest(path, { ...options, method: 'PUT', body }),
};

// The client is a unit: the network is replaced by a fake fetch answering each case.

type Answer = { status: number; body?: unknown; headers?: Record<string, string> } | Error;

let toasts: { kind: ToastKind; message: string }[];
let navigations: string[];
let unauthorized: number;
let requests: { url: string; init: RequestInit }[];
let answer: Answer;

function fakeFetch(url: RequestInfo | URL, init?: RequestInit): Promise<Response> {
  requests.push({ url: String(url), init: init ?? {} });
  if (answer instanceof Error) return Promise.reject(answer);
  const { status, body, headers } = answer;
  const text = body === undefined ? null : typeof body === 'string' ? body : JSON.stringify(body);
  const type = typeof body === 'string' ? 'text/html' : 'application/json';
  return Promise.resolve(new Response(status === 204 ? null : text, { status, headers: { 'Content-Type': type, ...headers } }));
}

beforeEach(async () => {
  initI18n('en');
  await i18n.changeLanguage('en');
  toasts = [];
  navigations = [];
  unauthorized = 0;
  requests = [];
  configureApi({
    baseUrl: 'https://api.test/v3/',
    fetch: fakeFetch,
    notify: (kind, message) => toasts.push({ kind, message }),
    navigate: (to) => navigations.push(to),
    onUnauthorized: () => (unauthorized += 1),
  });
});

afterEach(() => deleteCookie(DEVICE_COOKIE));

async function failure(promise: Promise<unknown>): Promise<ApiError> {
  const error = await promise.catch((caught: unknown) => caught);
  expect(error).toBeInstanceOf(ApiError);
  return error as ApiError;
}

describe('HTTP error policy (the spec error catalogue)', () => {
  it('400: warning toast with the server message', async () => {
    answer = { status: 400, body: { code: 'validation_error', message: 'The email field is required' } };
    const error = await failure(api.post('/sso/auth', { email: '' }));
    expect(toasts).toEqual([{ kind: 'warning', message: 'The email field is required' }]);
    expect(error).toMatchObject({ status: 400, code: 'validation_error', message: 'The email field is required' });
  });

  it('400: a known code is shown translated, with its details filled in', async () => {
    await loadPagesCatalogue();
    answer = { status: 400, body: { code: '7015', message: 'x', details: { email: 'ada@example.com' } } };
    await failure(api.post('/register'));
    expect(toasts[0]).toEqual({ kind: 'warning', message: 'ada@example.com is in an Enterprise, leave it or use another email' });

    await loadCatalogue('vi');
    await i18n.changeLanguage('vi');
    answer = { status: 400, body: { code: 'auth.email_exists', message: 'email already exists' } };
    await failure(api.post('/register'));
    expect(toasts[1]).toEqual({ kind: 'warning', message: 'Email đã tồn tại' });
  });

  it.each([
    ["400: 'Invalid data' when the server says nothing usable", () => api.get('/x'), { status: 400, body: '<html>bad gateway page</html>' }, { kind: 'warning', message: 'Invalid data' }],
    ['a code naming a group of texts is not a text: the server message shows', () => api.post('/x'), { status: 400, body: { code: 'auth', message: 'Something about auth' } }, { kind: 'warning', message: 'Something about auth' }],
    ['403: the permission message', () => api.delete('/api-keys/1'), { status: 403, body: { code: 'forbidden', message: 'nope' } }, { kind: 'error', message: "Your account doesn't have permission to perform this action" }],
    ['other statuses: the server message', () => api.put('/x'), { status: 409, body: { code: 'conflict', message: 'Already taken' } }, { kind: 'error', message: 'Already taken' }],
  ] as const)('%s', async (_rule, request, reply, toast) => {
    answer = reply;
    await failure(request());
    expect(toasts).toEqual([toast]);
  });

  it('401: silent logout', async () => {
    answer = { status: 401, body: { code: 'unauthorized', message: 'Session expired, please login again' } };
    const error = await failure(api.get('/sso/me/sessions'));
    expect(unauthorized).toBe(1);
    expect(toasts).toEqual([]);
    expect(navigations).toEqual([]);
    expect(error.message).toBe('Session expired, please login again');
  });

  it('404: toast and back to the root', async () => {
    answer = { status: 404, body: { code: 'not_found', message: 'Resource not found' } };
    await failure(api.get('/wallet/transactions/9'));
    expect(toasts).toEqual([{ kind: 'error', message: 'Resource not found' }]);
    expect(navigations).toEqual(['/']);
  });

  it.each([
    [{ code: 'rate_limited', message: 'Slow down', details: { retry_after_seconds: 17 } }, 17],
    [{ code: 'rate_limited', message: 'Slow down', details: { retry_after_seconds: '2.2' } }, 3],
    [{ code: 'rate_limited', message: 'Request was throttled. Expected available in 42 seconds.' }, 42],
    [{ code: 'rate_limited', message: 'Slow down' }, 60],
    [undefined, 60],
  ])('429: waits the seconds the error names (%j -> %i)', async (body, seconds) => {
    answer = { status: 429, body };
    await failure(api.post('/sso/auth'));
    expect(toasts).toEqual([{ kind: 'warning', message: `Too many requests. Try again in ${seconds} seconds` }]);
  });

  it('500: the server message, or something went wrong', async () => {
    answer = { status: 500, body: { code: 'boom', message: 'Database unavailable' } };
    await failure(api.get('/x'));
    answer = { status: 500 };
    await failure(api.get('/x'));
    expect(toasts).toEqual([
      { kind: 'error', message: 'Database unavailable' },
      { kind: 'error', message: 'something went wrong' },
    ]);
    expect(navigations).toEqual([]);
  });

  it.each([502, 503, 504])('%i: off to /server-error', async (status) => {
    answer = { status, body: 'Bad gateway' };
    await failure(api.get('/x'));
    expect(navigations).toEqual(['/server-error']);
    expect(toasts).toEqual([]);
  });

  it('no response: something went wrong', async () => {
    answer = new TypeError('Failed to fetch');
    const error = await failure(api.get('/x'));
    expect(error.status).toBeNull();
    expect(toasts).toEqual([{ kind: 'error', message: 'something went wrong' }]);
  });

  it('an aborted request is the caller’s business: no toast, the abort is rethrown', async () => {
    answer = new DOMException('The operation was aborted.', 'AbortError');
    await expect(api.get('/x')).rejects.toMatchObject({ name: 'AbortError' });
    expect(toasts).toEqual([]);
  });
});

describe('opting out', () => {
  it('handle: [400] leaves a 400 to the form, with its translated message', async () => {
    answer = { status: 400, body: { code: 'auth.invalid_credentials', message: 'Email or password not valid' } };
    const error = await failure(api.post('/sso/auth', {}, { handle: [400] }));
    expect(toasts).toEqual([]);
    expect(error.message).toBe('Email or password not valid');
  });

  it('handle: [400] still applies the policy to other statuses', async () => {
    answer = { status: 404, body: { code: 'not_found', message: 'x' } };
    await failure(api.post('/sso/auth', {}, { handle: [400] }));
    expect(navigations).toEqual(['/']);
  });

  it("handle: 'all' skips the policy even for network errors", async () => {
    answer = new TypeError('Failed to fetch');
    await failure(api.get('/resources/lang', { handle: 'all' }));
    answer = { status: 401 };
    await failure(api.get('/resources/lang', { handle: 'all' }));
    expect(toasts).toEqual([]);
    expect(unauthorized).toBe(0);
  });

  it('silent keeps redirects and logout but shows no toast', async () => {
    answer = { status: 404, body: { code: 'not_found', message: 'x' } };
    await failure(api.get('/x', { silent: true }));
    expect(toasts).toEqual([]);
    expect(navigations).toEqual(['/']);
  });
});

describe('requests', () => {
  it('calls the API base with credentials, JSON and the query', async () => {
    answer = { status: 200, body: { ok: true } };
    const result = await api.post('/sso/auth', { email: 'ada@example.com' }, { query: { lang: 'vi', skip: undefined } });
    expect(result).toEqual({ ok: true });
    const [{ url, init }] = requests;
    expect(url).toBe('https://api.test/v3/sso/auth?lang=vi');
    expect(init).toMatchObject({ method: 'POST', credentials: 'include', body: '{"email":"ada@example.com"}' });
    expect((init.headers as Record<string, string>)['Content-Type']).toBe('application/json');
  });

  it('answers undefined for an empty success', async () => {
    answer = { status: 204 };
    expect(await api.delete('/api-keys/1')).toBeUndefined();
  });
});

describe('declared endpoints', () => {
  const key = { id: 'k1', name: 'CI', prefix: 'pk_ab', scopes: ['me:read'], created_at: '2026-01-01T00:00:00Z', last_used_at: null, expires_at: null };

  it('takes method and path from the declaration, with path parameters encoded', async () => {
    answer = { status: 204 };
    expect(await call(apiKeyEndpoints.revoke, { params: { id: 'a/b c' } })).toBeUndefined();
    expect(requests[0].url).toBe('https://api.test/v3/sso/me/api-keys/a%2Fb%20c');
    expect(requests[0].init.method).toBe('DELETE');
  });

  it('sends the body and parses the answer with the declared schema', async () => {
    answer = { status: 201, body: { ...key, key: 'pk_secret', extra: 'dropped' } };
    const created = await call(apiKeyEndpoints.create, { body: { name: 'CI', scopes: ['me:read'] } });
    expect(created).toEqual({ ...key, key: 'pk_secret' });
    expect(requests[0].init).toMatchObject({ method: 'POST', body: '{"name":"CI","scopes":["me:read"]}' });
  });

  it('refuses an answer that does not match its declaration', async () => {
    answer = { status: 200, body: [{ id: 1 }] };
    await expect(call(apiKeyEndpoints.list)).rejects.toThrow();
  });
});

describe('device id', () => {
  it('sends the device cookie as the device-id header, and none before there is one', async () => {
    answer = { status: 200, body: {} };
    await api.get('/x');
    writeCookie(DEVICE_COOKIE, 'dev-123');
    await api.get('/x');
    expect((requests[0].init.headers as Record<string, string>)[DEVICE_ID_HEADER]).toBeUndefined();
    expect((requests[1].init.headers as Record<string, string>)[DEVICE_ID_HEADER]).toBe('dev-123');
  });

  it('keeps the id a response carries, until the expiry it names', async () => {
    const cookies = recordCookieWrites();
    const expiresAt = Math.floor(Date.now() / 1000) + 3600;
    answer = { status: 200, body: {}, headers: { [DEVICE_ID_HEADER]: 'dev-new', [DEVICE_EXPIRY_HEADER]: String(expiresAt) } };
    await api.get('/x');
    cookies.restore();
    expect(readCookie(DEVICE_COOKIE)).toBe('dev-new');
    expect(cookies.writes[0]).toContain(`expires=${new Date(expiresAt * 1000).toUTCString()}`);
  });
});

describe('deviceExpiry', () => {
  const now = Date.UTC(2025, 0, 1);
  const thirtyDays = new Date(now + 30 * 24 * 3600 * 1000);

  it('reads unix seconds and ISO dates', () => {
    expect(deviceExpiry(String(now / 1000 + 60), now)).toEqual(new Date(now + 60_000));
    expect(deviceExpiry('2025-02-01T00:00:00Z', now)).toEqual(new Date('2025-02-01T00:00:00Z'));
  });

  it('takes a millisecond value for what it is', () => {
    expect(deviceExpiry(String(now + 60_000), now)).toEqual(new Date(now + 60_000));
  });

  it('falls back to 30 days when absent, unreadable or already past', () => {
    expect(deviceExpiry(null, now)).toEqual(thirtyDays);
    expect(deviceExpiry('soon', now)).toEqual(thirtyDays);
    expect(deviceExpiry(String(now / 1000 - 10), now)).toEqual(thirtyDays);
  });
});

describe('server texts in the visitor language (the spec validation rules)', () => {
  beforeEach(async () => {
    await loadPagesCatalogue();
    await loadCatalogue('vi');
  });
  afterEach(async () => {
    await i18n.changeLanguage('en');
  });

  it.each([
    ['auth.email_exists', 'email already exists', 'Email đã tồn tại'],
    ['auth.email_not_valid', 'email is not valid', 'Email không hợp lệ'],
    ['auth.enter_valid_email', 'enter a valid email address', 'Nhập địa chỉ email hợp lệ'],
    ['validation.blank', 'This field may not be blank.', 'Trường này không được để trống.'],
    ['validation.emailInvalid', 'Email address is not valid', 'Địa chỉ email không hợp lệ'],
    ['validation.passwordTooShort', 'Enter a password of at least 8 characters', 'Nhập mật khẩu có ít nhất 8 ký tự'],
  ] as const)('a field coded %s reads "%s" in English and "%s" in Vietnamese', async (code, english, vietnamese) => {
    await i18n.changeLanguage('vi');
    expect(fieldErrorText({ code, message: english })).toBe(vietnamese);
    await i18n.changeLanguage('en');
    expect(fieldErrorText({ code, message: english })).toBe(english);
  });

  it('keeps the English message of a field error we have no words for', async () => {
    await i18n.changeLanguage('vi');
    expect(fieldErrorText({ code: 'validation_error', message: 'Something only the server knows' })).toBe('Something only the server knows');
  });

  it('words a 400 by its first field in the toast, and each field for the form', async () => {
    await i18n.changeLanguage('vi');
    answer = {
      status: 400,
      body: { code: 'validation_error', message: 'email: enter a valid email address', details: { fields: { email: { code: 'auth.enter_valid_email', message: 'enter a valid email address' } } } },
    };
    const error = await failure(api.post('/x'));
    expect(toasts).toEqual([{ kind: 'warning', message: 'Nhập địa chỉ email hợp lệ' }]);
    const fields = fieldErrors(error);
    expect(Object.keys(fields)).toEqual(['email']);
    expect(fieldErrorText(fields.email!)).toBe('Nhập địa chỉ email hợp lệ');
  });

  it('errorText follows the language shown now, and names the refusal of a handled 403', async () => {
    answer = { status: 403, body: { code: 'auth.not_activated', message: 'Your account is not activated. Check your email' } };
    const error = await failure(api.post('/sso/auth', {}, { handle: [403] }));
    expect(toasts).toEqual([]);
    expect(errorText(error)).toBe('Your account is not activated. Check your email');
    await i18n.changeLanguage('vi');
    expect(errorText(error)).toBe('Tài khoản của bạn chưa được kích hoạt. Hãy kiểm tra email');
  });

  it('a 429 in the form counts the seconds the server named', async () => {
    answer = { status: 429, body: { code: 'rate_limited', message: 'x', details: { retry_after_seconds: 42 } } };
    const error = await failure(api.post('/sso/auth', {}, { handle: [429] }));
    expect(errorText(error)).toBe('Too many requests. Try again in 42 seconds');
  });
});

describe('re-authentication', () => {
  afterEach(() => setReauthPrompt(null));
  const refusal = { status: 403, body: { code: 'auth.reauth_required', message: 'Confirm it is you to continue' } };

  it('asks the registered prompt, then repeats the call once', async () => {
    let asked = 0;
    setReauthPrompt(async () => {
      asked += 1;
      answer = { status: 201, body: { ok: true } };
      return true;
    });
    answer = refusal;
    expect(await api.post('/sso/me/api-keys', { name: 'k' })).toEqual({ ok: true });
    expect(asked).toBe(1);
    expect(requests.map((request) => request.init.body)).toEqual([JSON.stringify({ name: 'k' }), JSON.stringify({ name: 'k' })]);
  });

  it('asks again for the two-step and email pages too, whose calls handle their own 400s, and sends the same proof again', async () => {
    const pages: [() => Promise<unknown>, Answer][] = [
      [() => call(mfaEndpoints.disable, { body: { password: 'pw', recovery_code: 'ABCDE-FGHJK' } }, { handle: [400] }), { status: 204 }],
      [() => call(mfaEndpoints.regenerateRecoveryCodes, { body: { password: 'pw', code: '123456' } }, { handle: [400] }), { status: 200, body: { recovery_codes: ['ABCDE-FGHJK'] } }],
      [() => call(accountEndpoints.requestEmailChange, { body: { new_email: 'new@example.com', password: 'pw' } }, { handle: [400] }), { status: 204 }],
    ];
    for (const [page, success] of pages) {
      requests = [];
      let asked = 0;
      setReauthPrompt(async () => {
        asked += 1;
        answer = success;
        return true;
      });
      answer = refusal;
      await page();
      expect(asked).toBe(1);
      expect(requests).toHaveLength(2);
      expect(requests[1]!.init.body).toBe(requests[0]!.init.body);
    }
    expect(toasts).toEqual([]);
  });

  it('gives up when the person cancels, with the usual 403 toast', async () => {
    setReauthPrompt(async () => false);
    answer = refusal;
    expect((await failure(api.post('/sso/me/api-keys', {}))).code).toBe('auth.reauth_required');
    expect(requests).toHaveLength(1);
    expect(toasts).toEqual([{ kind: 'error', message: expect.any(String) }]);
  });
});
