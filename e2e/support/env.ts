/**
 * Where the server under test lives. The global setup starts it and publishes these as
 * environment variables before the workers start; every spec reads them from here.
 */
export interface E2eEnv {
  port: number;
  /** http://localhost:PORT: the platform brand. */
  platformUrl: string;
  /** http://locker.localhost:PORT: the locker brand. */
  lockerUrl: string;
  /** Where the locker logo links (VAULT_URL; default LOCKER_ORIGIN/). */
  vaultUrl: string;
  /** Folder where the run's SMTP peer drops caught mail (the mail portal's, support/mail.ts). */
  mailDir?: string;
}

export function e2eEnv(): E2eEnv {
  const platformUrl = process.env.E2E_BASE_URL;
  if (!platformUrl) throw new Error('E2E_BASE_URL is not set: run the specs through `playwright test` (global setup starts the server)');
  const port = Number(new URL(platformUrl).port || 80);
  const lockerUrl = process.env.E2E_LOCKER_URL || `http://locker.localhost:${port}`;
  return {
    port,
    platformUrl,
    lockerUrl,
    vaultUrl: process.env.E2E_VAULT_URL || `${lockerUrl}/`,
    mailDir: process.env.E2E_MAIL_DIR || undefined,
  };
}
