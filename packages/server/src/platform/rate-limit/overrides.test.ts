import { describe, expect, it } from 'vitest';
import { startTestServer } from '../../../test/harness';
import { loadConfig } from '../../config';
import { applyLimitOverrides, limits, parseLimitOverrides } from './rules';

describe('RATE_LIMITS', () => {
  it('reads name=limit/windowSeconds pairs and names what is wrong', () => {
    expect(loadConfig({ NODE_ENV: 'development' }).RATE_LIMITS).toEqual({});
    expect(loadConfig({ NODE_ENV: 'development', RATE_LIMITS: 'signin:ip=200/600, signup:ip=20/3600' }).RATE_LIMITS).toEqual({
      'signin:ip': { limit: 200, windowSeconds: 600 },
      'signup:ip': { limit: 20, windowSeconds: 3600 },
    });
    expect(parseLimitOverrides('nope:ip=1/1')).toHaveProperty('problem');
    expect(parseLimitOverrides('signin:ip=0/600')).toHaveProperty('problem');
    expect(() => loadConfig({ NODE_ENV: 'development', RATE_LIMITS: 'signin:ip=lots' })).toThrow(/RATE_LIMITS/);
  });

  it('sets the allowance every endpoint counts against (HTTP)', async () => {
    const before = { ...limits.recoveryPerIp };
    applyLimitOverrides({ 'recovery:ip': { limit: 3, windowSeconds: 60 } });
    const server = await startTestServer();
    try {
      const guess = () => server.app.inject({ method: 'POST', url: '/v3/sso/password/forgot/verify-code', remoteAddress: '10.66.0.1', payload: { identifier: 'x@example.com', code: '000000' } });
      const statuses = [];
      for (let attempt = 0; attempt < 4; attempt++) statuses.push((await guess()).statusCode);
      expect(statuses).toEqual([400, 400, 400, 429]);
    } finally {
      applyLimitOverrides({ 'recovery:ip': before });
      await server.close();
    }
  });
});
