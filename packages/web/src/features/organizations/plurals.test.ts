import { describe, expect, it } from 'vitest';
import { i18n, initI18n, loadAccountCatalogue } from '../../lib/i18n';
import { applyLanguage } from '../../lib/language';

/** The organization pages' counts go by each language's plural rules (i18next with Intl.PluralRules): never "1 people". */
describe('counts on the organization pages', () => {
  it.each([
    ['en', 1, '1 person in the organization.', '(1 signing certificate)'],
    ['en', 2, '2 people in the organization.', '(2 signing certificates)'],
    ['vi', 1, '1 người trong tổ chức.', '(1 chứng chỉ ký)'],
    ['vi', 3, '3 người trong tổ chức.', '(3 chứng chỉ ký)'],
  ] as const)('%s, %i', async (language, count, members, certificates) => {
    initI18n('en');
    await loadAccountCatalogue();
    await applyLanguage(language);
    expect(i18n.t('organizations.members.description', { count })).toBe(members);
    expect(i18n.t('organizations.sso.provider.samlCurrent', { count, entityId: 'https://idp.example' })).toContain(certificates);
  });
});
