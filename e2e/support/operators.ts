import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { test, type APIRequestContext, type BrowserContext, type Page, type PlaywrightWorkerArgs } from '@playwright/test';
import { generate } from 'otplib';
import { startSmtpPeer, type SmtpPeer } from '../../packages/server/test/smtp-peer';
import { seriousViolations } from './axe';
import { snap } from './helpers';
import { createActivatedAccount, expect, poll, type Portal } from './mail';
import { startPortalServer, type PortalServer } from './server';

/** RFC 6238's time step, as the server and every authenticator app count it. */
const TOTP_STEP_SECONDS = 30;
/** How long a code made here must stay good for the server: its request may take that long on a loaded machine. */
const CODE_ROOM_SECONDS = 20;

export type OperatorRole = 'owner' | 'support' | 'finance';
export interface Person {
  email: string;
  password: string;
  fullName: string;
}

/** What the console specs set up before their tests: the people, who has two-step, who holds which role. */
export interface OperatorSetup {
  /** Every account, made and activated through the API. */
  people: readonly Person[];
  /** Accounts that turn on two-step verification (an authenticator app the spec plays). */
  twoStep: readonly Person[];
  /** Named by OPERATOR_EMAILS at the restart: how the first owners are made. */
  owners: readonly Person[];
  /** Roles the first owner then gives through the admin API, with a reason. */
  grants?: ReadonlyArray<readonly [Person, OperatorRole]>;
  /** Anything to do as a person before the restart (an order, a reward). */
  beforeRestart?(request: APIRequestContext): Promise<void>;
  /** Anything to do as the signed-in first owner after the grants (an app to register), through the API. */
  asOwner?(owner: APIRequestContext): Promise<void>;
}

/**
 * A portal of its own for an operators' console spec (its data folder, its SMTP peer, its
 * server), with what each console spec repeated: two-step verification on through the API,
 * signing in with the authenticator's code, the first owner by OPERATOR_EMAILS and the roles
 * they give, and the screen checks (no sideways scroll, no serious axe issue, a screenshot).
 */
export class ConsolePortal {
  dataDir = '';
  peer!: SmtpPeer;
  server!: PortalServer;
  portal!: Portal;
  /** Each account's authenticator seed. */
  readonly secrets = new Map<string, string>();
  /** The time step of each account's last accepted code: the server takes a code once, so the next waits for a new step. */
  private readonly usedSteps = new Map<string, number>();

  /** `env` is added to every start (`DATA_DIR` and `SMTP_URL` are this portal's). */
  constructor(
    private readonly name: string,
    private readonly env: Record<string, string> = {},
  ) {}

  get url(): string {
    return this.server.platformUrl;
  }

  /** The data folder and the SMTP peer, before the first start (a spec may prepare the folder in between). */
  async prepare(): Promise<void> {
    this.dataDir = await mkdtemp(path.join(tmpdir(), `portal-e2e-${this.name}-`));
    this.peer = await startSmtpPeer();
  }

  get dataEnv(): Record<string, string> & { DATA_DIR: string } {
    return { NODE_ENV: 'development', DATA_DIR: path.join(this.dataDir, 'db') };
  }

  async start(env: Record<string, string> = {}): Promise<void> {
    if (!this.dataDir) await this.prepare();
    this.server = await startPortalServer({ env: { ...this.dataEnv, SMTP_URL: this.peer.url, ...this.env, ...env } });
    this.portal = { platformUrl: this.server.platformUrl, lockerUrl: this.server.lockerUrl, waitForMail: (to, options) => poll(() => this.peer.messages, to, options) };
  }

  async restart(env: Record<string, string> = {}): Promise<void> {
    await this.server.close();
    await this.start(env);
  }

  /** Starts the portal, makes the people and the operators (see OperatorSetup). */
  async setUp(playwright: PlaywrightWorkerArgs['playwright'], setup: OperatorSetup): Promise<void> {
    // Two server starts, the sign-ups and their mails: more than a hook's minute on 2 busy cores.
    test.setTimeout(300_000);
    if (!this.server) await this.start();
    // All at once, each person in a request context of their own (a sign-up's registration
    // cookie and a sign-in are per client): the waits for the activation mails overlap.
    const eachAlone = (people: readonly Person[], work: (request: APIRequestContext, person: Person) => Promise<unknown>) =>
      Promise.all(
        people.map(async (person) => {
          const own = await playwright.request.newContext();
          try {
            await work(own, person);
          } finally {
            await own.dispose();
          }
        }),
      );
    await eachAlone(setup.people, (request, person) => createActivatedAccount(request, this.portal, person));
    await eachAlone(setup.twoStep, (request, person) => this.turnOnTotp(request, person));
    const request = await playwright.request.newContext();
    await setup.beforeRestart?.(request);
    await request.dispose();
    await this.restart({ OPERATOR_EMAILS: setup.owners.map((owner) => owner.email).join(',') });
    if (!setup.grants?.length && !setup.asOwner) return;
    // Through the API alone: a browser of its own here cost a Chromium start per spec.
    const owner = await playwright.request.newContext();
    try {
      await this.signInWith(owner, setup.owners[0]!);
      for (const [person, role] of setup.grants ?? []) await this.grant(owner, person, role);
      await setup.asOwner?.(owner);
    } finally {
      await owner.dispose();
    }
  }

  async close(): Promise<void> {
    await this.server?.close();
    await this.peer?.close();
    if (this.dataDir) await rm(this.dataDir, { recursive: true, force: true });
  }

  /** Turns TOTP on through the API, as the security page does, and keeps the seed (the spec plays the authenticator app). */
  async turnOnTotp(request: APIRequestContext, person: Person): Promise<string> {
    expect((await request.post(`${this.url}/v3/sso/auth`, { data: { email: person.email, password: person.password } })).ok()).toBe(true);
    const setup = await request.post(`${this.url}/v3/sso/me/2fa/totp/setup`);
    expect(setup.ok(), await setup.text()).toBe(true);
    const { secret } = (await setup.json()) as { secret: string };
    this.secrets.set(person.email, secret);
    const enabled = await request.post(`${this.url}/v3/sso/me/2fa/totp/enable`, { data: { code: await this.freshCode(person) } });
    expect(enabled.ok(), await enabled.text()).toBe(true);
    await request.post(`${this.url}/v3/sso/logout`);
    return secret;
  }

  /**
   * A code of a time step this account has not used yet, which the server still takes 20 s from
   * now at least. The server takes the code of the step before its now, of its now or of the next
   * one, each once and only after the last it took: the earliest such step goes first, so up to
   * three codes a step go at once, and only a further one waits for the clock (a console spec
   * signs its owner in several times a minute). Waiting instead for room in the step cost up to
   * 10 s a code, and a third code in one step up to 30 s.
   */
  async freshCode(person: Person): Promise<string> {
    const secret = this.secrets.get(person.email);
    if (!secret) throw new Error(`${person.email} has no two-step verification in this spec`);
    for (;;) {
      const seconds = Date.now() / 1000;
      const now = Math.floor(seconds / TOTP_STEP_SECONDS);
      const last = this.usedSteps.get(person.email) ?? -Infinity;
      // The server takes step s until its now passes s + 1, i.e. until (s + 2) steps' start.
      const step = [now - 1, now, now + 1].find((candidate) => candidate > last && (candidate + 2) * TOTP_STEP_SECONDS - seconds >= CODE_ROOM_SECONDS);
      if (step !== undefined) {
        this.usedSteps.set(person.email, step);
        return generate({ secret, epoch: step * TOTP_STEP_SECONDS });
      }
      await sleep(500);
    }
  }

  /** Signs the browser in with the password and, when two-step is on, the authenticator's code; optionally in a language. */
  async signInAs(context: BrowserContext, person: Person, language?: 'en' | 'vi'): Promise<void> {
    await this.signInWith(context.request, person);
    if (language) await context.addCookies([{ name: 'lang', value: language, url: this.url }]);
  }

  /** Signs a request context (its cookies) in with the password and, when two-step is on, the authenticator's code. */
  async signInWith(request: APIRequestContext, person: Person): Promise<void> {
    const first = await request.post(`${this.url}/v3/sso/auth`, { data: { email: person.email, password: person.password } });
    expect(first.ok(), await first.text()).toBe(true);
    const body = (await first.json()) as { mfa_token?: string };
    if (body.mfa_token) {
      const second = await request.post(`${this.url}/v3/sso/auth/mfa`, { data: { mfa_token: body.mfa_token, code: await this.freshCode(person) } });
      expect(second.ok(), await second.text()).toBe(true);
    }
  }

  /** An owner's session (a request context signed in by signInWith) gives a role through the admin API (201, in the operator audit log). */
  async grant(owner: APIRequestContext, person: Person, role: OperatorRole, reason = 'joins the operators'): Promise<void> {
    const granted = await owner.post(`${this.url}/v3/admin/operators`, { data: { email: person.email, role, reason } });
    expect(granted.status(), await granted.text()).toBe(201);
  }
}

/**
 * What scrolls sideways on the screen: the page itself, or on a phone any box inside it (a
 * table's scroll area, a code block), named by its test id or its class. A phone shows every
 * list as cards (DataTable narrow="cards"), so nothing there should hide half a row off screen.
 */
function sidewaysScroll(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const found: string[] = [];
    if (document.documentElement.scrollWidth > document.documentElement.clientWidth) found.push('the page');
    if (window.innerWidth >= 768) return found;
    for (const element of Array.from(document.body.querySelectorAll<HTMLElement>('*'))) {
      const overflow = getComputedStyle(element).overflowX;
      if ((overflow === 'auto' || overflow === 'scroll') && element.scrollWidth > element.clientWidth + 1) {
        const named = element.closest('[data-testid]')?.getAttribute('data-testid');
        found.push(named ?? (element.className || element.tagName).toString().slice(0, 80));
      }
    }
    return found;
  });
}

/** Nothing on the screen scrolls sideways (see sidewaysScroll). */
export async function noSidewaysScroll(page: Page, name: string): Promise<void> {
  // Polled: right after a viewport change the phone layout (Mantine's media queries in JS) may not have replaced the desktop one yet.
  await expect.poll(() => sidewaysScroll(page), { message: `${name}: nothing scrolls sideways` }).toEqual([]);
}

/** A console screen as a person sees it (not under the pointer): no sideways scroll, no serious axe issue; then its screenshot. */
export async function looksRight(page: Page, name: string): Promise<void> {
  await page.mouse.move(0, 0);
  await noSidewaysScroll(page, name);
  expect(await seriousViolations(page)).toEqual([]);
  await snap(page, name);
}
