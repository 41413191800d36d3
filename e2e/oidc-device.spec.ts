import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import * as oidc from 'openid-client';
import { signIn } from './support/auth';
import { outlastProofWindow, snap } from './support/helpers';
import { demoAccountFromLog, ROOT, startPortalServer, type PortalServer } from './support/server';

/**
 * A desktop app's device sign-in (RFC 8628) approved on the portal's page in Chromium: the
 * page names the app and shows the code to compare with the device; a code pre-filled from
 * verification_uri_complete is approved only when the person clicks; and a session whose
 * sign-in is older than the recent-proof window (REAUTH_MAX_AGE_SECONDS, 5 s on this spec's
 * own server) proves it is the person before the app gets their account.
 */
test.describe.configure({ mode: 'serial' });

/** This server's recent-proof window (REAUTH_MAX_AGE_SECONDS). */
const PROOF_SECONDS = 5;
let portal: PortalServer;
let dataDir: string;
let demo: { email: string; password: string };

test.beforeAll(async () => {
  test.setTimeout(120_000);
  dataDir = await mkdtemp(path.join(tmpdir(), 'portal-e2e-device-'));
  portal = await startPortalServer({
    env: {
      NODE_ENV: 'development',
      DATA_DIR: path.join(dataDir, 'db'),
      OAUTH_CLIENTS_FILE: path.join(ROOT, 'packages', 'server', 'test', 'oauth-clients.json'),
      REAUTH_MAX_AGE_SECONDS: String(PROOF_SECONDS),
    },
  });
  demo = (await demoAccountFromLog(portal.logFile))!;
});

test.afterAll(async () => {
  await portal?.close();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

test('a pre-filled device code shows the app and the code, waits for the click, and asks a sign-in of minutes ago to prove it is the person', async ({ page }) => {
  const desktop = await oidc.discovery(new URL(portal.platformUrl), 'test-desktop', {}, oidc.None(), { execute: [oidc.allowInsecureRequests] });
  await signIn(page.context(), portal.platformUrl, demo);
  const signedInAt = Date.now();
  const device = await oidc.initiateDeviceAuthorization(desktop, { scope: 'openid email' });
  const stillWaiting = () => oidc.pollDeviceAuthorizationGrant(desktop, { ...device, interval: 0.01 }, undefined, { signal: AbortSignal.timeout(500) });

  // The link the device shows (verification_uri_complete) only fills the code in.
  await page.goto(device.verification_uri_complete!);
  await expect(page.getByTestId('quick-app-code')).toHaveValue(device.user_code);
  await expect(page.getByTestId('quick-app-approve')).toHaveCount(0);
  await expect(stillWaiting()).rejects.toThrow();
  await page.getByTestId('quick-app-continue').click();
  await expect(page.getByText('Sign Test Desktop in to your account?')).toBeVisible();
  await expect(page.getByTestId('quick-app-user-code')).toHaveText(device.user_code);
  await snap(page, 'device-approval');

  // The sign-in is older than the recent-proof window now: approving asks for the password first.
  await outlastProofWindow(page, signedInAt, PROOF_SECONDS);
  await page.getByTestId('quick-app-approve').click();
  const dialog = page.getByTestId('reauth-dialog');
  await expect(dialog).toBeVisible();
  await expect(stillWaiting()).rejects.toThrow();
  await dialog.getByLabel('Password').fill(demo.password);
  await dialog.getByRole('button', { name: 'Confirm' }).click();
  await expect(page.getByTestId('quick-app-outcome')).toHaveText('The app is signed in. You can go back to it.');
  const tokens = await oidc.pollDeviceAuthorizationGrant(desktop, { ...device, interval: 0.01 });
  expect(tokens.claims()!.email).toBe(demo.email);
});

test('a signed-out person reaches /login/quick-app, a child of /login, signs in from it and comes back with the code', async ({ page }) => {
  const desktop = await oidc.discovery(new URL(portal.platformUrl), 'test-desktop', {}, oidc.None(), { execute: [oidc.allowInsecureRequests] });
  const device = await oidc.initiateDeviceAuthorization(desktop, { scope: 'openid email' });
  await page.goto(device.verification_uri_complete!);
  // Not sent away: the page itself, the code filled in, and the way to sign in first.
  await expect(page).toHaveURL(/\/login\/quick-app\?user_code=/);
  await expect(page.getByTestId('quick-app-code')).toHaveValue(device.user_code);
  await expect(page.getByTestId('quick-app-sign-in-first')).toBeVisible();
  await snap(page, 'device-signed-out');
  await page.getByRole('button', { name: 'Sign in to continue' }).click();
  await expect(page).toHaveURL(/\/login\?next=%2Flogin%2Fquick-app%3Fuser_code%3D/);
  await page.getByLabel('Email or username').fill(demo.email);
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.getByLabel('Password', { exact: true }).fill(demo.password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  // Back with the code; now the app's request can be looked at.
  await expect(page).toHaveURL(/\/login\/quick-app\?user_code=/);
  await expect(page.getByTestId('quick-app-code')).toHaveValue(device.user_code);
  await page.getByTestId('quick-app-continue').click();
  await expect(page.getByText('Sign Test Desktop in to your account?')).toBeVisible();
});
