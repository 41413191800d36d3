import { act, cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { renderAccount, setUpAccountTest } from '../../test/account-kit';
import { applyLanguage } from '../../lib/language';
import { setSessionUser, type SessionUser } from '../../lib/session';
import { ProfileForm } from './ProfileForm';

const user: SessionUser = {
  id: 'u1',
  email: 'ada@example.com',
  full_name: 'Ada Lovelace',
  username: null,
  language: 'en',
  customer_language: 'en',
  phone: null,
  company: null,
  organization: null,
  address: null,
  country: null,
};

afterEach(async () => {
  cleanup();
  setSessionUser(undefined);
  await applyLanguage('en');
});

const input = (label: RegExp) => screen.getByLabelText(label) as HTMLInputElement;

describe('ProfileForm', () => {
  it('shows the rules under the fields in English and again in Vietnamese, without sending', async () => {
    const kit = await setUpAccountTest(({ path }) => (path === '/resources/countries' ? [200, [{ code: 'VN', name: { en: 'Viet Nam', vi: 'Việt Nam' } }]] : [500]));
    setSessionUser(user);
    renderAccount(<ProfileForm />);

    fireEvent.change(input(/^Full name/), { target: { value: ' ' } });
    fireEvent.change(input(/^Phone/), { target: { value: '09-12' } });
    fireEvent.change(input(/^Company/), { target: { value: 'A&B' } });
    fireEvent.change(input(/^Username/), { target: { value: 'ada.l' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save changes' }));

    expect(await screen.findByText('This field may not be blank.')).toBeTruthy();
    expect(screen.getByText('Enter a phone number of digits only')).toBeTruthy();
    expect(screen.getByText('Enter a company name of letters and digits only')).toBeTruthy();
    expect(screen.getByText('Enter a username of letters and digits only')).toBeTruthy();
    expect(kit.requests.filter((request) => request.path === '/sso/me')).toEqual([]);

    await act(() => applyLanguage('vi'));
    expect(await screen.findByText('Trường này không được để trống.')).toBeTruthy();
    expect(screen.getByText('Nhập số điện thoại chỉ gồm chữ số')).toBeTruthy();
    expect(screen.getByText('Nhập tên công ty chỉ gồm chữ cái và chữ số')).toBeTruthy();
    expect(screen.getByText('Nhập tên người dùng chỉ gồm chữ cái và chữ số')).toBeTruthy();
  });

  it("saves the whole user with both languages and shows the server's field message", async () => {
    const kit = await setUpAccountTest(({ path, method }) => {
      if (path === '/resources/countries') return [200, []];
      if (path === '/sso/me' && method === 'PUT') {
        return [400, { code: 'validation_error', message: 'Invalid data', details: { fields: { username: { code: 'account.username_taken', message: 'This username is already taken' } } } }];
      }
      return [404];
    });
    setSessionUser(user);
    renderAccount(<ProfileForm />);

    fireEvent.change(input(/^Username/), { target: { value: 'taken' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save changes' }));

    expect(await screen.findByText('This username is already taken')).toBeTruthy();
    const put = kit.requests.find((request) => request.method === 'PUT');
    expect(put?.body).toMatchObject({ id: 'u1', email: 'ada@example.com', full_name: 'Ada Lovelace', username: 'taken', language: 'en', customer_language: 'en' });
    await waitFor(() => expect(kit.toasts).toEqual([{ kind: 'error', message: 'Your profile could not be saved' }]));
  });
});
