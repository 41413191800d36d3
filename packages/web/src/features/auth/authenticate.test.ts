import { describe, expect, it } from 'vitest';
import { handOffTarget } from './AuthenticatePage';

describe('the hand-off to a product (/authenticate)', () => {
  it("goes through the provider's /o/authorize with the entry's OAuth client values: the product gets a code, never a token", () => {
    const target = handOffTarget('?client_id=pwdmanager&redirect_uri=https%3A%2F%2Flocker.io%2Fauth%2Fcallback&response_type=code&scope=openid&state=s1&code_challenge=abc&code_challenge_method=S256&SERVICE_URL=https%3A%2F%2Fevil.example', []);
    expect(target).toBe('/o/authorize?client_id=pwdmanager&redirect_uri=https%3A%2F%2Flocker.io%2Fauth%2Fcallback&response_type=code&scope=openid&state=s1&code_challenge=abc&code_challenge_method=S256');
  });

  it('falls back to an allowed SERVICE_URL, never another origin, else home', () => {
    expect(handOffTarget('?SERVICE_URL=https%3A%2F%2Flocker.io%2Fapp', ['https://locker.io'])).toBe('https://locker.io/app');
    expect(handOffTarget('?SERVICE_URL=https%3A%2F%2Fevil.example%2F', ['https://locker.io'])).toBe('/');
    expect(handOffTarget('?client_id=only', [])).toBe('/');
  });
});
