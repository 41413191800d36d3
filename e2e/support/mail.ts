import { test as base, type APIRequestContext } from '@playwright/test';
import type { Challenge } from 'altcha-lib';
import { solveAltcha } from '../../packages/server/test/captcha';
import { startSmtpPeer, type SmtpPeer } from '../../packages/server/test/smtp-peer';
import { e2eEnv } from './env';
import { startPortalServer, type PortalServer } from './server';
import { readMail } from './smtp';

/**
 * Specs that read mail (activation links, reset codes) get a `portal`: a server whose mail
 * goes to a real SMTP peer.
 *
 * - Under the global setup, `portal` is the run's mail portal (global-setup.ts starts it and
 *   its SMTP peer once and publishes E2E_MAIL_PORTAL_URL, E2E_MAIL_LOCKER_URL and
 *   E2E_MAIL_DIR; with `E2E_SMTP=1` it is the shared server itself), and mail is read from
 *   the peer's folder.
 * - Otherwise (specs run against E2E_BASE_URL), each worker starts its own server
 *   (startPortalServer) with SMTP_URL on its own peer (packages/server/test/smtp-peer.ts),
 *   once, on first use.
 *
 * Use `test` and `expect` from this module; `baseURL` is the portal's platform origin.
 */

export interface MailMessage {
  to: string[];
  subject: string;
  text: string;
  html: string;
}

export interface Portal {
  /** http://localhost:PORT: the platform brand. */
  platformUrl: string;
  /** http://locker.localhost:PORT: the locker brand. */
  lockerUrl: string;
  /**
   * The `count`-th message (1 = first) to `to` whose subject matches, waiting up to
   * `timeoutMs` for it to arrive. Addresses are unique per test, so counting is enough.
   */
  waitForMail(to: string, options?: { subject?: RegExp; count?: number; timeoutMs?: number }): Promise<MailMessage>;
}

const MAIL_TIMEOUT_MS = 15_000;

function matching(messages: MailMessage[], to: string, subject: RegExp | undefined): MailMessage[] {
  const address = to.toLowerCase();
  return messages.filter((mail) => mail.to.some((recipient) => recipient.toLowerCase() === address) && (!subject || subject.test(mail.subject)));
}

export async function poll(read: () => Promise<MailMessage[]> | MailMessage[], to: string, options: Parameters<Portal['waitForMail']>[1] = {}): Promise<MailMessage> {
  const count = options.count ?? 1;
  const deadline = Date.now() + (options.timeoutMs ?? MAIL_TIMEOUT_MS);
  for (;;) {
    const found = matching(await read(), to, options.subject);
    if (found.length >= count) return found[count - 1]!;
    if (Date.now() > deadline) {
      throw new Error(`mail #${count} to ${to}${options.subject ? ` matching ${options.subject}` : ''} did not arrive within ${options.timeoutMs ?? MAIL_TIMEOUT_MS} ms (found ${found.length})`);
    }
    await new Promise((resolve) => setTimeout(resolve, 150));
  }
}

function sharedPortal(mailDir: string): Portal {
  const env = e2eEnv();
  return {
    platformUrl: process.env.E2E_MAIL_PORTAL_URL || env.platformUrl,
    lockerUrl: process.env.E2E_MAIL_LOCKER_URL || env.lockerUrl,
    waitForMail: (to, options) => poll(() => readMail(mailDir), to, options),
  };
}

async function ownPortal(): Promise<{ portal: Portal; close(): Promise<void> }> {
  // The web app is built by the global setup (every worker building it here would race).
  let peer: SmtpPeer | null = null;
  let server: PortalServer | null = null;
  try {
    peer = await startSmtpPeer();
    server = await startPortalServer({ env: { SMTP_URL: peer.url } });
  } catch (error) {
    await peer?.close();
    throw error;
  }
  const messages = peer.messages;
  return {
    portal: {
      platformUrl: server.platformUrl,
      lockerUrl: server.lockerUrl,
      waitForMail: (to, options) => poll(() => messages, to, options),
    },
    close: async () => {
      await server?.close();
      await peer?.close();
    },
  };
}

export const test = base.extend<object, { portal: Portal }>({
  portal: [
    // eslint-disable-next-line no-empty-pattern
    async ({}, use) => {
      const mailDir = process.env.E2E_MAIL_DIR;
      if (mailDir) {
        await use(sharedPortal(mailDir));
        return;
      }
      const own = await ownPortal();
      try {
        await use(own.portal);
      } finally {
        await own.close();
      }
    },
    { scope: 'worker', timeout: 120_000 },
  ],
  baseURL: async ({ portal }, use) => use(portal.platformUrl),
});

export { expect } from '@playwright/test';

// --- Helpers over mail ---------------------------------------------------------------------

/** The first link in a mail whose path starts with `pathPrefix` (e.g. '/confirmation/'). */
export function linkIn(mail: MailMessage, pathPrefix: string): string {
  const pattern = new RegExp(`https?://[^\\s"'<>]+${pathPrefix.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}[^\\s"'<>]+`);
  const found = pattern.exec(mail.text) ?? pattern.exec(mail.html);
  if (!found) throw new Error(`no ${pathPrefix} link in "${mail.subject}":\n${mail.text}`);
  return found[0];
}

/** The 6-digit code of a reset or sign-in mail. */
export function codeIn(mail: MailMessage): string {
  const found = /\b(\d{6})\b/.exec(mail.text);
  if (!found) throw new Error(`no 6-digit code in "${mail.subject}":\n${mail.text}`);
  return found[1]!;
}

/** A fresh address for one test (the SMTP peer accepts anything). */
export function uniqueEmail(label: string): string {
  return `e2e-${label}-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}@example.test`;
}

let accountsMade = 0;
/** A loopback address of its own for each account made through the API. */
function nextVisitorAddress(): string {
  accountsMade += 1;
  return `127.2.${(process.pid + accountsMade) % 250}.${(accountsMade % 250) + 1}`;
}

/**
 * An activated account made through the API (what the sign-up page does, with the captcha
 * solved here the way the widget solves it), for specs about what comes after sign-up.
 */
export async function createActivatedAccount(
  request: APIRequestContext,
  portal: Portal,
  account: { email: string; password: string; fullName: string },
  baseUrl = portal.platformUrl,
): Promise<void> {
  const challengeResponse = await request.get(`${baseUrl}/v3/sso/captcha/challenge`);
  if (!challengeResponse.ok()) throw new Error(`no captcha challenge: ${challengeResponse.status()}`);
  const captcha = await solveAltcha((await challengeResponse.json()) as Challenge);
  const signUp = await request.post(`${baseUrl}/v3/sso/users`, {
    data: { full_name: account.fullName, email: account.email, password: account.password, accept_terms: true, captcha },
    headers: { 'x-forwarded-for': nextVisitorAddress() },
  });
  if (signUp.status() !== 201) throw new Error(`sign-up of ${account.email} failed: ${signUp.status()} ${await signUp.text()}`);
  const mail = await portal.waitForMail(account.email, { subject: /activate/i });
  const token = decodeURIComponent(linkIn(mail, '/confirmation/').split('/confirmation/')[1]!);
  const activated = await request.post(`${baseUrl}/v3/sso/users/activate`, { data: { token } });
  if (!activated.ok()) throw new Error(`activation of ${account.email} failed: ${activated.status()} ${await activated.text()}`);
}
