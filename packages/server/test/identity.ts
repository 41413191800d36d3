import type { FastifyInstance } from 'fastify';
import { listOutbox } from '../src/platform/mail';
import type { DatabaseHandle } from '../src/db/client';
import { solveCaptcha } from './captcha';

let visitors = 0;
/** Each sign-up comes from its own loopback address, as real people do, so per-IP limits stay out of the way (counted across clients: one client's people are another's too). */
const nextVisitor = () => `127.1.${Math.floor(++visitors / 250)}.${(visitors % 250) + 1}`;

/** Helpers that drive the identity API the way the web app does. */
export function identityClient(app: FastifyInstance, database: DatabaseHandle) {
  /**
   * The client is one browser: it keeps the registration cookie a sign-up sets, so the links
   * it follows keep that sign-up's credentials (auth/registration-browser.ts). A test that
   * plays the mailbox's owner in another browser posts without it (`app.inject`).
   */
  let registration: string | undefined;
  const post = async (url: string, payload: unknown, headers: Record<string, string> = {}, remoteAddress = '127.0.0.1') => {
    const cookie = registration ? { cookie: `auth_registration=${registration}` } : {};
    const response = await app.inject({ method: 'POST', url, payload: payload as object, remoteAddress, headers: { 'user-agent': 'vitest', ...cookie, ...headers } });
    const set = response.cookies.find((item) => item.name === 'auth_registration');
    if (set) registration = set.value;
    return response;
  };

  /** The newest mail to `email` matching `pattern`, skipping matches already used (`exclude`). */
  async function mailTo(email: string, pattern: RegExp, exclude: string[] = [], timeoutMs = 5000): Promise<RegExpMatchArray> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const mails = await listOutbox(database, { to: email, limit: 20 });
      for (const mail of mails) {
        const match = mail.text.match(pattern);
        if (match && !exclude.includes(match[1] ?? match[0])) return match;
      }
      if (Date.now() > deadline) throw new Error(`no mail to ${email} matching ${pattern}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  return {
    post,
    mailTo,
    async signUp(email: string, password = 'plum-orbit-cactus-917', extra: Record<string, unknown> = {}) {
      const body = { full_name: 'Test Person', email, password, accept_terms: true, captcha: await solveCaptcha(app), ...extra };
      return post('/v3/sso/users', body, {}, nextVisitor());
    },
    async activate(email: string, exclude: string[] = []) {
      const [, token] = await mailTo(email, /\/confirmation\/([\w-]+)/, exclude);
      return post('/v3/sso/users/activate', { token });
    },
    signIn(email: string, password: string, extra: Record<string, unknown> = {}) {
      return post('/v3/sso/auth', { email, password, ...extra });
    },
    /** Signs up, activates and signs in; returns the session token. */
    async registeredUser(email: string, password = 'plum-orbit-cactus-917'): Promise<string> {
      // In a browser of its own: two made at once (Promise.all) must not share one registration
      // cookie, or the first activation link is followed in the second's browser and, as the
      // mailbox owner's would be, activates the account without the registration's password.
      const browser = identityClient(app, database);
      await browser.signUp(email, password);
      await browser.activate(email);
      const response = await browser.signIn(email, password);
      if (response.statusCode !== 200) throw new Error(`sign-in failed: ${response.body}`);
      return response.json().token as string;
    },
  };
}
