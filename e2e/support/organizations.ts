import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, type Page } from '@playwright/test';
import { startSmtpPeer, type SmtpPeer } from '../../packages/server/test/smtp-peer';
import { seriousViolations } from './axe';
import { poll, type Portal } from './mail';
import { operatorCommand, startPortalServer, type PortalServer } from './server';

/** The organization a spec starts with: made by `npm run organizations` as an operator does, before its server opens the database. */
export interface OrganizationSetup {
  /** The organization's name. */
  name: string;
  /** Its first owner (`create <name> --admin <owner>`). */
  owner: string;
  /** Plain members (`add-member <name> <email>`). */
  members?: string[];
}

/** A spec's own portal (own PGlite folder, own SMTP peer) with an organization in it. */
export interface OrganizationPortal {
  server: PortalServer;
  portal: Portal;
  peer: SmtpPeer;
  close(): Promise<void>;
}

/**
 * Makes the organization with the operator command in a fresh data folder (PGlite is opened by
 * one process at a time, so before the server starts), then starts the spec's server on it with
 * a real SMTP peer; `env` adds the spec's own settings (a DNS server...). The people sign up
 * through the API themselves (createActivatedAccount): membership is by email.
 */
export async function startOrganizationPortal(label: string, organization: OrganizationSetup, env: Record<string, string> = {}): Promise<OrganizationPortal> {
  const dataDir = await mkdtemp(path.join(tmpdir(), `portal-e2e-${label}-`));
  const serverEnv = { NODE_ENV: 'development', DATA_DIR: path.join(dataDir, 'db'), ...env };
  const command = (...args: string[]) => operatorCommand('organizations-admin', args, serverEnv);
  await command('create', organization.name, '--admin', organization.owner);
  for (const member of organization.members ?? []) await command('add-member', organization.name, member);
  const peer = await startSmtpPeer();
  const server = await startPortalServer({ env: { ...serverEnv, SMTP_URL: peer.url } });
  const portal: Portal = { platformUrl: server.platformUrl, lockerUrl: server.lockerUrl, waitForMail: (to, options) => poll(() => peer.messages, to, options) };
  return {
    server,
    portal,
    peer,
    async close() {
      await server.close();
      await peer.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** axe finds nothing serious on `page`, named `screen` in the failure. */
export async function noSeriousViolations(page: Page, screen: string): Promise<void> {
  // Off any link the test clicked (a hovered link is not what axe is asked about), and past the entrance transitions.
  await page.mouse.move(1270, 790);
  await page.waitForTimeout(300);
  expect((await seriousViolations(page)).map((violation) => `${screen}: ${violation}`)).toEqual([]);
}

/** A JSON POST from the page (Node cannot resolve locker.localhost; Chromium can), with the page's cookies; its status. */
export const postFromPage = (page: Page, url: string, body: object) =>
  page.evaluate(
    async ({ url, body }) => (await fetch(url, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) })).status,
    { url, body },
  );
