import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { isOperatorAuth } from './endpoint';
import { allEndpoints } from './all-endpoints';
import { adminReasonSchema } from './operators/roles';

const label = (endpoint: { method: string; path: string }) => `${endpoint.method} ${endpoint.path}`;

describe('admin endpoints', () => {
  const admin = allEndpoints.filter((endpoint) => endpoint.path.startsWith('/admin/'));

  it('are every /admin path, and only operators reach them', () => {
    expect(admin.length).toBeGreaterThan(0);
    expect(admin.filter((endpoint) => !isOperatorAuth(endpoint.auth)).map(label)).toEqual([]);
    expect(allEndpoints.filter((endpoint) => isOperatorAuth(endpoint.auth) && !endpoint.path.startsWith('/admin/')).map(label)).toEqual([]);
  });

  it('take a reason of 3 to 500 characters in the body of every call that changes something', () => {
    const missing = admin.filter((endpoint) => {
      if (endpoint.method === 'GET') return false;
      const body = endpoint.body;
      if (!(body instanceof z.ZodObject)) return true;
      const reason = (body.shape as Record<string, z.ZodType>).reason;
      return !reason || !reason.safeParse('ok!').success || reason.safeParse('no').success || reason.safeParse('x'.repeat(501)).success;
    });
    expect(missing.map(label)).toEqual([]);
    expect(adminReasonSchema.parse('  Asked by the person  ')).toBe('Asked by the person');
  });
});
