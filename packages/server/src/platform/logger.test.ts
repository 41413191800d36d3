import { describe, expect, it } from 'vitest';
import { loggedLine } from '../../test/logs';
import { redactUrl } from './logger';

describe('redactUrl', () => {
  it('masks tokens in link paths', () => {
    expect(redactUrl('/confirmation/abc123')).toBe('/confirmation/[redacted]');
    expect(redactUrl('/reset-pwd/abc123?x=1')).toBe('/reset-pwd/[redacted]?x=1');
    expect(redactUrl('/confirmation/education-email/zz')).toBe('/confirmation/education-email/[redacted]');
  });
  it('masks secret query values and keeps the rest', () => {
    expect(redactUrl('/o/cb?code=secret&state=s&lang=vi')).toBe('/o/cb?code=%5Bredacted%5D&state=%5Bredacted%5D&lang=vi');
  });
  it('leaves plain paths alone', () => {
    expect(redactUrl('/v3/sso/me')).toBe('/v3/sso/me');
  });
});

describe('the log line', () => {
  const secret = 's3cr3t-value-never-logged';

  it('censors secret keys at the top of a logged object and one level down', () => {
    const line = loggedLine({
      password: secret,
      body: { email: 'ada@example.test', password: secret, new_password: secret },
      config: { PARTNER_EXCHANGE_SECRET: secret, WHC_SIGNER_KEY: secret, PORT: 8080 },
      oauth: { token: secret, code: secret, authorization: `Bearer ${secret}` },
    });
    expect(line).not.toContain(secret);
    const parsed = JSON.parse(line) as { body: { email: string; password: string }; config: { PORT: number } };
    expect(parsed.body).toEqual({ email: 'ada@example.test', password: '[redacted]', new_password: '[redacted]' });
    expect(parsed.config.PORT).toBe(8080);
  });

  it('never changes the object it logs', () => {
    const body = { password: secret };
    loggedLine({ body });
    expect(body.password).toBe(secret);
  });

  it('keeps a request line to method, masked URL and address', () => {
    const line = loggedLine({ req: { method: 'GET', url: '/reset-pwd/abc?code=1', ip: '10.0.0.1', headers: { cookie: secret } } });
    expect(JSON.parse(line).req).toEqual({ method: 'GET', url: '/reset-pwd/[redacted]?code=%5Bredacted%5D', ip: '10.0.0.1' });
  });

  it('keeps a response line to its status', () => {
    const line = loggedLine({ res: { statusCode: 200, headers: { 'set-cookie': `auth_token=${secret}` }, getHeaders: () => ({ 'set-cookie': secret }) } });
    expect(line).not.toContain(secret);
    expect(JSON.parse(line).res).toEqual({ statusCode: 200 });
  });
});
