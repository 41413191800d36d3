import { act, cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { Trans, useTranslation } from 'react-i18next';
import { i18n, initI18n } from './i18n';

afterEach(async () => {
  cleanup();
  await act(() => i18n.changeLanguage('en'));
});

function Greeting() {
  const { t } = useTranslation();
  return <p>{t('errors.fallback')}</p>;
}

describe("the app's react-i18next", () => {
  it('puts the named tags of a text in the given elements, the text between them kept', () => {
    initI18n('en');
    i18n.addResourceBundle('en', 'translation', { tagged: 'I agree to the <terms>Terms</terms> and the <privacy>Privacy Policy</privacy>.' }, true, true);
    render(<Trans i18nKey={'tagged' as never} components={{ terms: <a href="/terms" />, privacy: <a href="/privacy" /> }} />);
    expect(screen.getByRole('link', { name: 'Terms' }).getAttribute('href')).toBe('/terms');
    expect(screen.getByRole('link', { name: 'Privacy Policy' }).getAttribute('href')).toBe('/privacy');
    expect(document.body.textContent).toBe('I agree to the Terms and the Privacy Policy.');
  });

  it('renders again in the new language when it changes', async () => {
    initI18n('en');
    i18n.addResourceBundle('vi', 'translation', { errors: { fallback: 'Lỗi' } }, true, true);
    render(<Greeting />);
    expect(screen.getByText('Error')).toBeTruthy();
    await act(() => i18n.changeLanguage('vi'));
    expect(screen.getByText('Lỗi')).toBeTruthy();
  });
});
