import { describe, expect, it } from 'vitest';
import { isPagePath } from './routes';

describe('isPagePath', () => {
  it('knows every page of the route table, with and without optional tokens', () => {
    for (const path of ['/', '/login', '/login/password', '/security/webauthn', '/reset-pwd', '/reset-pwd/abc', '/confirmation/app/x', '/register/premium', '/wallet/whc/']) {
      expect(isPagePath(path), path).toBe(true);
    }
  });
  it('refuses everything else', () => {
    for (const path of ['/nope', '/login/nope/deeper', '/reset-pwd/a/b', '/security/other', '/register/a/b', '/vault']) {
      expect(isPagePath(path), path).toBe(false);
    }
  });
});
