import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config';

describe('loadConfig', () => {
  it('fills defaults for an empty environment', () => {
    const config = loadConfig({});
    expect(config.PORT).toBe(8080);
    expect(config.PLATFORM_HOSTS).toEqual(['localhost', '127.0.0.1']);
    expect(config.LOCKER_HOSTS).toEqual(['locker.localhost']);
    expect(config.LOCKER_API_BASE_URL).toBe('http://locker.localhost:8080/v3');
    expect(config.SEED_DEMO).toBe(true);
  });

  it('derives origins from PORT', () => {
    expect(loadConfig({ PORT: '9000' }).PLATFORM_ORIGIN).toBe('http://localhost:9000');
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
    expect(loadConfig({}).DELETION_JOB_INTERVAL_SECONDS).toBe(3600);
    expect(loadConfig({ DELETION_JOB_INTERVAL_SECONDS: '0' }).DELETION_JOB_INTERVAL_SECONDS).toBe(0);
    expect(() => loadConfig({ DELETION_JOB_INTERVAL_SECONDS: '-1', BUGBOUNTY_URL: 'not a url' })).toThrow(/DELETION_JOB_INTERVAL_SECONDS[\s\S]*BUGBOUNTY_URL|BUGBOUNTY_URL[\s\S]*DELETION_JOB_INTERVAL_SECONDS/);
    expect(() => loadConfig({ CHATWOOT_WEBSITE_TOKEN: 'token' })).toThrow(/CHATWOOT_BASE_URL/);
  });

  it('requires a recaptcha secret when recaptcha is chosen', () => {
    expect(() => loadConfig({ CAPTCHA_PROVIDER: 'recaptcha' })).toThrow(/RECAPTCHA_SECRET/);
  });
});
