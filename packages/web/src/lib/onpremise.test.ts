import { beforeEach, describe, expect, it } from 'vitest';
import { configureApi, type ToastKind } from './api';
import { i18n, initI18n } from './i18n';
import { discoverOnPremise, ON_PREMISE_STORAGE_KEY, onPremiseLoginUrl, onPremiseOpenerOrigin } from './onpremise';

type Answer = { status: number; body?: unknown } | Error;
let answer: Answer;
let requests: { url: string; init: RequestInit }[];
let toasts: { kind: ToastKind; message: string }[];
let navigations: string[];

const result = {
  activated: true,
  base_api: 'https://api.acme.example',
  email: 'member@acme.example',
  avatar: null,
  require_passwordless: true,
  set_up_passwordless: false,
  login_url: 'https://vault.acme.example/login?from=portal',
};

beforeEach(async () => {
  initI18n('en');
  await i18n.changeLanguage('en');
  requests = [];
  toasts = [];
  navigations = [];
  sessionStorage.clear();
  configureApi({
    baseUrl: 'https://api.test/v3/',
    fetch: (url, init) => {
      requests.push({ url: String(url), init: init ?? {} });
      if (answer instanceof Error) return Promise.reject(answer);
      return Promise.resolve(new Response(JSON.stringify(answer.body ?? null), { status: answer.status, headers: { 'Content-Type': 'application/json' } }));
    },
    notify: (kind, message) => toasts.push({ kind, message }),
    navigate: (to) => navigations.push(to),
    onUnauthorized: () => undefined,
  });
});

describe('on-premise discovery on the sign-in page', () => {
  it('asks the product prelogin with the email and language; an empty list goes on here', async () => {
    answer = { status: 200, body: [] };
    const gone: string[] = [];
    expect(await discoverOnPremise('someone@example.com', 'vi', { go: (url) => gone.push(url), opener: null })).toEqual({ kind: 'none' });
    expect(requests[0]!.url).toBe('https://api.test/v3/locker_platform/pm/users/onpremise/prelogin');
    expect(requests[0]!.init.method).toBe('POST');
    expect(JSON.parse(String(requests[0]!.init.body))).toEqual({ email: 'someone@example.com', language: 'vi' });
    expect(gone).toEqual([]);
  });

  it('stores an activated result, tells the opener, and goes to the login page with the email', async () => {
    answer = { status: 200, body: [result] };
    const gone: string[] = [];
    const messages: unknown[] = [];
    const opener = { postMessage: (message: unknown) => messages.push(message) } as Pick<Window, 'postMessage'>;
    const outcome = await discoverOnPremise('Member@acme.example', 'en', { go: (url) => gone.push(url), opener, openerOrigin: 'https://client.example' });
    const url = 'https://vault.acme.example/login?from=portal&email=member%40acme.example';
    expect(outcome).toEqual({ kind: 'redirect', result, url });
    expect(gone).toEqual([url]);
    expect(messages).toEqual([{ type: 'onpremise', result }]);
    expect(JSON.parse(sessionStorage.getItem(ON_PREMISE_STORAGE_KEY)!)).toEqual(result);
    expect(onPremiseLoginUrl({ login_url: 'https://a.example/login', email: 'x@y.example' })).toBe('https://a.example/login?email=x%40y.example');
  });

  it('says not activated for an inactive deployment, and goes nowhere', async () => {
    answer = { status: 200, body: [{ ...result, activated: false }] };
    const gone: string[] = [];
    expect(await discoverOnPremise('member@acme.example', 'en', { go: (url) => gone.push(url), opener: null })).toMatchObject({ kind: 'inactive' });
    expect(gone).toEqual([]);
    expect(sessionStorage.getItem(ON_PREMISE_STORAGE_KEY)).toBeNull();
  });

  it('shows the email error of a refused email; any other failure goes on here without a toast', async () => {
    const field = { code: 'validation.emailInvalid', message: 'Email address is not valid' };
    answer = { status: 400, body: { code: 'validation_error', message: 'Invalid data', details: { fields: { email: field } } } };
    expect(await discoverOnPremise('x@y', 'en', { opener: null })).toEqual({ kind: 'field', error: field });
    for (const failure of [{ status: 429, body: { code: 'rate_limited', message: 'Too many requests. Try again in 60 seconds' } }, { status: 503, body: {} }, new TypeError('offline')]) {
      answer = failure;
      expect(await discoverOnPremise('member@acme.example', 'en', { opener: null })).toEqual({ kind: 'none' });
    }
    expect(toasts).toEqual([]);
    expect(navigations).toEqual([]);
  });
});

describe('the window that opened the sign-in', () => {
  const allowed = ['https://locker.example', 'https://client.example'];
  const here = 'https://id.example';

  /** An opener that records where each message was addressed. */
  function recordingOpener() {
    const sent: Array<{ message: unknown; targetOrigin: string }> = [];
    const opener = {
      postMessage: (message: unknown, target?: string | WindowPostMessageOptions) => sent.push({ message, targetOrigin: typeof target === 'string' ? target : (target?.targetOrigin ?? '/') }),
    } as Pick<Window, 'postMessage'>;
    return { opener, sent };
  }

  it('receives the result at the origin it named, never at any origin (*)', async () => {
    answer = { status: 200, body: [result] };
    const { opener, sent } = recordingOpener();
    const openerOrigin = onPremiseOpenerOrigin(`?origin=${encodeURIComponent('https://client.example/app/')}`, allowed, here);
    await discoverOnPremise('member@acme.example', 'en', { go: () => undefined, opener, openerOrigin });
    expect(sent).toEqual([{ message: { type: 'onpremise', result }, targetOrigin: 'https://client.example' }]);
  });

  it('gets nothing when it named no origin, or one that is not a product’s: the sign-in still goes on', async () => {
    for (const search of ['', '?origin=', '?origin=https%3A%2F%2Fevil.example', '?origin=https%3A%2F%2Fclient.example.evil.example', '?origin=%2F%2Fevil.example', '?origin=javascript%3Aalert(1)', '?origin=*', '?origin=%2Flogin']) {
      answer = { status: 200, body: [result] };
      const { opener, sent } = recordingOpener();
      const gone: string[] = [];
      const outcome = await discoverOnPremise('member@acme.example', 'en', { go: (url) => gone.push(url), opener, openerOrigin: onPremiseOpenerOrigin(search, allowed, here) });
      expect(sent, search).toEqual([]);
      expect(outcome.kind).toBe('redirect');
      expect(gone).toHaveLength(1);
    }
  });

  it('takes the named origin only when it is this site or an allowed one', () => {
    expect(onPremiseOpenerOrigin('?origin=https%3A%2F%2Flocker.example', allowed, here)).toBe('https://locker.example');
    expect(onPremiseOpenerOrigin(`?origin=${encodeURIComponent(here)}`, allowed, here)).toBe(here);
    expect(onPremiseOpenerOrigin('?origin=http%3A%2F%2Flocker.example', allowed, here)).toBeNull();
    expect(onPremiseOpenerOrigin('?origin=https%3A%2F%2Fuser%40locker.example', allowed, here)).toBeNull();
  });
});
