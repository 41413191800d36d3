import { describe, expect, it } from 'vitest';
import { configureApi } from '../../lib/api';
import { testConfig } from '../../test/render';
import { chatwootSettings, fetchChatwootIdentity } from './ShellChat';

describe('support chat settings', () => {
  it('loads the widget only when the deployment configures it completely', () => {
    expect(chatwootSettings(testConfig)).toBeNull();
    expect(chatwootSettings({ ...testConfig, chatwoot: { baseUrl: '', websiteToken: 'x' } })).toBeNull();
    expect(chatwootSettings({ ...testConfig, chatwoot: { baseUrl: 'javascript:alert(1)', websiteToken: 'x' } })).toBeNull();
    expect(chatwootSettings({ ...testConfig, chatwoot: { baseUrl: 'https://chat.example.com/', websiteToken: 'tok' } })).toEqual({
      baseUrl: 'https://chat.example.com',
      websiteToken: 'tok',
    });
  });

  it("asks the locker product for the locker brand's identity, /sso/me otherwise", async () => {
    const asked: string[] = [];
    const identity = { identifier: 'u1', name: 'Ann', email: 'ann@example.com', language_override: 'en', user_hash: 'h' };
    configureApi({
      baseUrl: 'https://api.test/v3',
      notify: () => undefined,
      navigate: () => undefined,
      onUnauthorized: () => undefined,
      fetch: async (url) => {
        asked.push(String(url));
        return new Response(JSON.stringify(identity), { headers: { 'Content-Type': 'application/json' } });
      },
    });
    expect(await fetchChatwootIdentity('platform')).toEqual(identity);
    await fetchChatwootIdentity('locker');
    expect(asked[0]).toBe('https://api.test/v3/sso/me/chatwoot');
    expect(asked[1]).toMatch(/^https:\/\/api\.test\/v3\/[a-z][a-z0-9]*_platform\/pm\/users\/me\/chatwoot$/);
  });
});
