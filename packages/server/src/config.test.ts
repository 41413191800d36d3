import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config';

describe('loadConfig', () => {
  it('is production unless told otherwise, and production needs its keys', () => {
    expect(() => loadConfig({})).toThrow(/ALTCHA_HMAC_KEY: required in production/);
    const config = loadConfig({ ALTCHA_HMAC_KEY: 'a-key-of-enough-length' });
    expect(config.NODE_ENV).toBe('production');
    expect(config.SEED_DEMO).toBe(false);
    expect(config.DEV_OUTBOX).toBe(false);
  });

  it('mounts the dev outbox only in development, without SMTP, listening on localhost', () => {
    expect(loadConfig({ NODE_ENV: 'development', HOST: '127.0.0.1' }).DEV_OUTBOX).toBe(true);
    expect(loadConfig({ NODE_ENV: 'development', HOST: '::1' }).DEV_OUTBOX).toBe(true);
    expect(loadConfig({ NODE_ENV: 'development' }).DEV_OUTBOX).toBe(false);
    expect(loadConfig({ NODE_ENV: 'development', HOST: '127.0.0.1', SMTP_URL: 'smtp://mail.example.com' }).DEV_OUTBOX).toBe(false);
    expect(loadConfig({ NODE_ENV: 'production', HOST: '127.0.0.1', ALTCHA_HMAC_KEY: 'a-key-of-enough-length' }).DEV_OUTBOX).toBe(false);
  });

  it('fills defaults for a development environment', () => {
    const config = loadConfig({ NODE_ENV: 'development' });
    expect(config.PORT).toBe(8080);
    expect(config.PLATFORM_HOSTS).toEqual(['localhost', '127.0.0.1']);
    expect(config.LOCKER_HOSTS).toEqual(['locker.localhost']);
    expect(config.LOCKER_API_BASE_URL).toBe('http://locker.localhost:8080/v3');
    expect(config.SEED_DEMO).toBe(true);
  });

  it('takes the four bank deposit settings together or not at all, each checked', () => {
    const deposits = { VIETQR_BANK_BIN: '970436', VIETQR_ACCOUNT_NUMBER: '0071001234567', VIETQR_ACCOUNT_NAME: 'CONG TY PORTAL', BANK_WEBHOOK_SECRET: 'x'.repeat(32) };
    const config = loadConfig({ NODE_ENV: 'development', ...deposits });
    expect(config.VIETQR_BANK_BIN).toBe('970436');
    expect(config.WALLET_DEPOSIT_TTL_MINUTES).toBe(1440);
    expect(loadConfig({ NODE_ENV: 'development' }).BANK_WEBHOOK_SECRET).toBeUndefined();
    expect(() => loadConfig({ NODE_ENV: 'development', VIETQR_BANK_BIN: '970436' })).toThrow(/set all four/);
    expect(() => loadConfig({ NODE_ENV: 'development', ...deposits, VIETQR_BANK_BIN: '97043' })).toThrow(/VIETQR_BANK_BIN: must be the bank's 6-digit NAPAS BIN/);
    expect(() => loadConfig({ NODE_ENV: 'development', ...deposits, BANK_WEBHOOK_SECRET: 'short' })).toThrow(/BANK_WEBHOOK_SECRET: must be at least 32 characters/);
    expect(() => loadConfig({ NODE_ENV: 'development', ...deposits, VIETQR_ACCOUNT_NUMBER: '12 34' })).toThrow(/VIETQR_ACCOUNT_NUMBER/);
  });

  it('takes the partner exchange URL and secret together or not at all, and keeps the secret out of the logs', async () => {
    const partner = { PARTNER_EXCHANGE_URL: 'https://partner.example/api', PARTNER_EXCHANGE_SECRET: 'p'.repeat(32) };
    const config = loadConfig({ NODE_ENV: 'development', ...partner });
    expect([config.PARTNER_EXCHANGE_URL, config.PARTNER_EXCHANGE_RETRY_SECONDS]).toEqual(['https://partner.example/api', 30]);
    expect(() => loadConfig({ NODE_ENV: 'development', PARTNER_EXCHANGE_URL: partner.PARTNER_EXCHANGE_URL })).toThrow(/PARTNER_EXCHANGE_URL, PARTNER_EXCHANGE_SECRET: set both/);
    expect(() => loadConfig({ NODE_ENV: 'development', ...partner, PARTNER_EXCHANGE_SECRET: 'short' })).toThrow(/PARTNER_EXCHANGE_SECRET: must be at least 32 characters/);
    const { loggedLine } = await import('../test/logs');
    const line = loggedLine({ config, PARTNER_EXCHANGE_SECRET: config.PARTNER_EXCHANGE_SECRET });
    expect(line).toContain('https://partner.example/api');
    expect(line).not.toContain(partner.PARTNER_EXCHANGE_SECRET);
  });

  it('takes WHC deposits with the chain and the token, without the signer key, and a scan range above the confirmations', () => {
    const chain = { WHC_CHAIN_RPC_URL: 'https://bsc-dataseed.example/rpc', WHC_TOKEN_ADDRESS: `0x${'ab'.repeat(20)}` };
    const xpub = 'xpub6FALsbGyezYrpyZFavXX4KcWaKjg44X2QHkTWy5yfkH4fUxTDnjfSmD967tSqdZC5oNAnFovVpgtXcxRwust6ciT5Hc6pzADioEMMV5hNhn';
    const config = loadConfig({ NODE_ENV: 'development', ...chain, WHC_DEPOSIT_XPUB: xpub });
    expect([config.WHC_DEPOSIT_XPUB, config.WHC_DEPOSIT_SCAN_BLOCKS, config.WHC_DEPOSIT_START_BLOCK]).toEqual([xpub, 1000, undefined]);
    expect(() => loadConfig({ NODE_ENV: 'development', WHC_DEPOSIT_XPUB: xpub })).toThrow(/WHC_DEPOSIT_XPUB \(WHC deposits on\) needs WHC_CHAIN_RPC_URL and WHC_TOKEN_ADDRESS/);
    expect(() => loadConfig({ NODE_ENV: 'development', ...chain })).toThrow(/set all three/);
    expect(() => loadConfig({ NODE_ENV: 'development', ...chain, WHC_DEPOSIT_XPUB: 'xprv9s21ZrQH143K' })).toThrow(/WHC_DEPOSIT_XPUB: must be an extended public key/);
    expect(() => loadConfig({ NODE_ENV: 'development', ...chain, WHC_DEPOSIT_XPUB: xpub, WHC_CONFIRMATIONS: '15', WHC_DEPOSIT_SCAN_BLOCKS: '15' })).toThrow(/WHC_DEPOSIT_SCAN_BLOCKS: must be more than WHC_CONFIRMATIONS/);
  });

  it('takes the three WHC chain settings together or not at all, and never repeats the key', () => {
    const chain = { WHC_CHAIN_RPC_URL: 'https://bsc-dataseed.example/rpc', WHC_TOKEN_ADDRESS: `0x${'ab'.repeat(20)}`, WHC_SIGNER_KEY: `0x${'4c'.repeat(32)}` };
    const config = loadConfig({ NODE_ENV: 'development', ...chain });
    expect([config.WHC_TOKEN_DECIMALS, config.WHC_CONFIRMATIONS, config.WHC_CHAIN_POLL_SECONDS]).toEqual([8, 1, 10]);
    expect(loadConfig({ NODE_ENV: 'development' }).WHC_SIGNER_KEY).toBeUndefined();
    expect(() => loadConfig({ NODE_ENV: 'development', WHC_CHAIN_RPC_URL: chain.WHC_CHAIN_RPC_URL })).toThrow(/set all three/);
    expect(() => loadConfig({ NODE_ENV: 'development', ...chain, WHC_TOKEN_ADDRESS: '0x1234' })).toThrow(/WHC_TOKEN_ADDRESS: must be a contract address/);
    const badKey = `0x${'4c'.repeat(31)}zz`;
    let message = '';
    try {
      loadConfig({ NODE_ENV: 'development', ...chain, WHC_SIGNER_KEY: badKey });
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toMatch(/WHC_SIGNER_KEY: must be a private key/);
    expect(message).not.toContain('4c4c');
  });

  it('derives origins from PORT', () => {
    expect(loadConfig({ NODE_ENV: 'development', PORT: '9000' }).PLATFORM_ORIGIN).toBe('http://localhost:9000');
  });

  it('names every bad variable at once', () => {
    try {
      loadConfig({ PORT: 'abc', DATABASE_URL: 'mysql://x', REDIS_URL: 'http://x', NODE_ENV: 'staging' });
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      const text = (error as ConfigError).problems.join('\n');
      for (const name of ['PORT', 'DATABASE_URL', 'REDIS_URL', 'NODE_ENV']) expect(text).toContain(name);
    }
  });

  it('reads the account self-service settings', () => {
    expect(loadConfig({ NODE_ENV: 'development' }).DELETION_JOB_INTERVAL_SECONDS).toBe(3600);
    expect(loadConfig({ NODE_ENV: 'development', DELETION_JOB_INTERVAL_SECONDS: '0' }).DELETION_JOB_INTERVAL_SECONDS).toBe(0);
    expect(() => loadConfig({ NODE_ENV: 'development', DELETION_JOB_INTERVAL_SECONDS: '-1', BUGBOUNTY_URL: 'not a url' })).toThrow(/DELETION_JOB_INTERVAL_SECONDS[\s\S]*BUGBOUNTY_URL|BUGBOUNTY_URL[\s\S]*DELETION_JOB_INTERVAL_SECONDS/);
    expect(() => loadConfig({ NODE_ENV: 'development', CHATWOOT_WEBSITE_TOKEN: 'token' })).toThrow(/CHATWOOT_BASE_URL/);
  });

  it('requires a recaptcha secret when recaptcha is chosen', () => {
    expect(() => loadConfig({ NODE_ENV: 'development', CAPTCHA_PROVIDER: 'recaptcha' })).toThrow(/RECAPTCHA_SECRET/);
  });
});
