import { execFile } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import { request as requests, test, type APIRequestContext, type BrowserContext, type Page, type PlaywrightWorkerArgs } from '@playwright/test';
import { generate } from 'otplib';
import { startSmtpPeer, type SmtpPeer } from '../../packages/server/test/smtp-peer';
import { seriousViolations } from './axe';
import { snap } from './helpers';
import { createActivatedAccount, expect, poll, type Portal } from './mail';
import { operatorCommand, startPortalServer, type PortalServer } from './server';

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

/**
 * The owner every console portal starts with, unless its spec names its own owners: activated,
 * two-step on, owner by the operator command line (see consoleOwnerTemplate). Each portal has a
 * copy of the database of its own, so the same address serves every spec.
 */
export const CONSOLE_OWNER: Person = { email: 'e2e-console-owner@example.test', password: 'plum-orbit-cactus-917', fullName: 'Olivia Owner' };

/** What the console specs set up before their tests: the people, who has two-step, who holds which role. */
export interface OperatorSetup {
  /** The accounts to make and activate through the API (CONSOLE_OWNER is there already). */
  people: readonly Person[];
  /** Accounts that turn on two-step verification (an authenticator app the spec plays). */
  twoStep: readonly Person[];
  /**
   * Owners named by OPERATOR_EMAILS at a restart after the sign-ups, how an operator makes the
   * first owner: the portal then starts without CONSOLE_OWNER, and starts twice. Without, the
   * first owner is CONSOLE_OWNER and the portal starts once.
   */
  owners?: readonly Person[];
  /** Roles the first owner then gives through the admin API, with a reason. */
  grants?: ReadonlyArray<readonly [Person, OperatorRole]>;
  /** Anything to do as a person before the operators are made (an order, a reward). */
  asPeople?(request: APIRequestContext): Promise<void>;
  /** Anything to do as the signed-in first owner after the grants (an app to register), through the API. */
  asOwner?(owner: APIRequestContext): Promise<void>;
}

/** CONSOLE_OWNER's database, and what the specs need to play its authenticator app. */
interface OwnerTemplate {
  /** A DATA_DIR to copy. */
  db: string;
  /** The authenticator seed. */
  secret: string;
  /** The time step of the code that turned two-step on: the server takes only later ones. */
  usedStep: number;
}

const OWNER_TEMPLATE_PREFIX = 'portal-e2e-console-owner-';
let ownerTemplate: Promise<OwnerTemplate> | undefined;

/**
 * A PGlite folder holding CONSOLE_OWNER, made once per run (E2E_RUN_ID) by the first console
 * spec of either worker and copied by the others. The first owner of a portal takes a server
 * start to make (sign up through the API, then OPERATOR_EMAILS at a restart or the operator
 * command on the stopped server's folder): once a run instead of once a spec. The worker that
 * creates the folder makes it; the other waits for its owner.json, written last.
 */
function consoleOwnerTemplate(): Promise<OwnerTemplate> {
  ownerTemplate ??= (async () => {
    const dir = path.join(tmpdir(), `${OWNER_TEMPLATE_PREFIX}${process.env.E2E_RUN_ID ?? process.pid}`);
    const ready = path.join(dir, 'owner.json');
    const deadline = Date.now() + 240_000;
    for (;;) {
      if (existsSync(ready)) return { db: path.join(dir, 'db'), ...(JSON.parse(await readFile(ready, 'utf8')) as Omit<OwnerTemplate, 'db'>) };
      if (Date.now() > deadline) throw new Error(`the console owner's template ${dir} was not made within 4 minutes`);
      const mine = await mkdir(dir).then(
        () => true,
        () => false,
      );
      if (!mine) {
        await sleep(500);
        continue;
      }
      pruneOwnerTemplates(dir);
      try {
        await makeOwnerTemplate(dir, ready);
      } catch (error) {
        await rm(dir, { recursive: true, force: true }); // the other worker then makes it, or fails as this one did
        throw error;
      }
    }
  })();
  return ownerTemplate;
}

/** The templates of runs a day old go (a run leaves its own for the next to prune). */
function pruneOwnerTemplates(keep: string): void {
  const dayAgo = Date.now() - 24 * 60 * 60 * 1000;
  for (const name of readdirSync(tmpdir())) {
    const dir = path.join(tmpdir(), name);
    if (dir === keep || !name.startsWith(OWNER_TEMPLATE_PREFIX)) continue;
    const stat = statSync(dir, { throwIfNoEntry: false });
    if (stat && stat.mtimeMs < dayAgo) void rm(dir, { recursive: true, force: true });
  }
}

/** CONSOLE_OWNER signs up and turns two-step on through the API; the operator command then makes them owner on the stopped server's folder. */
async function makeOwnerTemplate(dir: string, ready: string): Promise<void> {
  const maker = new ConsolePortal('owner-template');
  try {
    await maker.prepare(false);
    await maker.start();
    const request = await requests.newContext();
    try {
      await createActivatedAccount(request, maker.portal, CONSOLE_OWNER);
      await maker.turnOnTotp(request, CONSOLE_OWNER);
    } finally {
      await request.dispose();
    }
    await maker.server.close();
    await operatorCommand('operators-admin', ['grant', CONSOLE_OWNER.email, 'owner', '--reason', 'the first owner of the console'], maker.dataEnv);
    await rename(maker.dataEnv.DATA_DIR, path.join(dir, 'db'));
    await writeFile(ready, JSON.stringify({ secret: maker.secrets.get(CONSOLE_OWNER.email), usedStep: maker.usedSteps.get(CONSOLE_OWNER.email) }));
  } finally {
    await maker.close();
  }
}

/**
 * A portal of its own for an operators' console spec (its data folder, its SMTP peer, its
 * server), with what each console spec repeated: two-step verification on through the API,
 * signing in with the authenticator's code, the first owner (CONSOLE_OWNER, or by OPERATOR_EMAILS) and the roles
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
  readonly usedSteps = new Map<string, number>();

  /** `env` is added to every start (`DATA_DIR` and `SMTP_URL` are this portal's). */
  constructor(
    private readonly name: string,
    private readonly env: Record<string, string> = {},
  ) {}

  get url(): string {
    return this.server.platformUrl;
  }

  /**
   * The data folder and the SMTP peer, before the first start (a spec may prepare the folder in
   * between). The folder holds CONSOLE_OWNER unless `withOwner` is false (setUp with `owners`).
   */
  async prepare(withOwner = true): Promise<void> {
    this.dataDir = await mkdtemp(path.join(tmpdir(), `portal-e2e-${this.name}-`));
    const [peer, template] = await Promise.all([startSmtpPeer(), withOwner ? consoleOwnerTemplate() : undefined]);
    this.peer = peer;
    if (!template) return;
    await promisify(execFile)('cp', ['-R', template.db, this.dataEnv.DATA_DIR]);
    this.secrets.set(CONSOLE_OWNER.email, template.secret);
    this.usedSteps.set(CONSOLE_OWNER.email, template.usedStep);
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
    // The server starts (and the first worker's console owner), the sign-ups and their mails: more than a hook's minute on 2 busy cores.
    test.setTimeout(300_000);
    if (!this.dataDir) await this.prepare(!setup.owners);
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
    await setup.asPeople?.(request);
    await request.dispose();
    if (setup.owners) await this.restart({ OPERATOR_EMAILS: setup.owners.map((owner) => owner.email).join(',') });
    if (!setup.grants?.length && !setup.asOwner) return;
    // Through the API alone: a browser of its own here cost a Chromium start per spec.
    const owner = await playwright.request.newContext();
    try {
      await this.signInWith(owner, setup.owners?.[0] ?? CONSOLE_OWNER);
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
