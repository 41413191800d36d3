import { describe, expect, it } from 'vitest';
import { testConfig } from '../../test/render';
import { chatwootIdentityPath, chatwootSettings } from './ShellChat';

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

  it("asks the locker product for the locker brand's identity, /sso/me otherwise", () => {
    expect(chatwootIdentityPath('platform')).toBe('/sso/me/chatwoot');
    expect(chatwootIdentityPath('locker')).toMatch(/^\/[a-z][a-z0-9]*_platform\/pm\/users\/me\/chatwoot$/);
  });
});
