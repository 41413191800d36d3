import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../lib/api';
import { applyLanguage } from '../../lib/language';
import { RequiredTwoFactorDialog } from './RequiredTwoFactorDialog';
import { renderAccount, setUpAccountTest } from '../../test/account-kit';
import { TwoFactorInputDialog } from './TwoFactorInputDialog';

afterEach(async () => {
  cleanup();
  await applyLanguage('en');
});

const codeInvalid = () =>
  new ApiError({ status: 400, code: 'auth.code_invalid', message: 'Verification code incorrect or expired', serverMessage: 'Verification code incorrect or expired' });
const boxes = () => within(screen.getByTestId('otp-input')).getAllByRole('textbox');

describe('TwoFactorInputDialog', () => {
  it('asks for 6 digits, shows a wrong code under the boxes, and passes a good one', async () => {
    await setUpAccountTest(() => [404]);
    const onSubmit = vi.fn(async (proof: unknown) => {
      if ((proof as { code?: string }).code === '111111') throw codeInvalid();
    });
    renderAccount(<TwoFactorInputDialog opened onClose={() => undefined} method="totp" onSubmit={onSubmit} />);

    expect(await screen.findByText('Enter the 6-digit code from your authenticator app.')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Verify' }));
    expect(await screen.findByText('Enter the 6-digit code')).toBeTruthy();
    expect(onSubmit).not.toHaveBeenCalled();

    fireEvent.change(boxes()[0]!, { target: { value: '111111' } });
    expect(await screen.findByText('Verification code incorrect or expired')).toBeTruthy();
    fireEvent.change(boxes()[0]!, { target: { value: '123456' } });
    await waitFor(() => expect(onSubmit).toHaveBeenLastCalledWith({ code: '123456' }));
  });

  it('takes a recovery code instead, upper-cased, and refuses a malformed one', async () => {
    await setUpAccountTest(() => [404]);
    const onSubmit = vi.fn(async () => undefined);
    renderAccount(<TwoFactorInputDialog opened onClose={() => undefined} method="email" onSubmit={onSubmit} />);

    fireEvent.click(await screen.findByRole('button', { name: 'Use a recovery code instead' }));
    const input = screen.getByTestId('recovery-code-input');
    fireEvent.change(input, { target: { value: 'abc' } });
    fireEvent.click(screen.getByRole('button', { name: 'Verify' }));
    expect(await screen.findByText('Recovery code not valid')).toBeTruthy();
    fireEvent.change(input, { target: { value: 'abcde-fghjk' } });
    fireEvent.click(screen.getByRole('button', { name: 'Verify' }));
    await waitFor(() => expect(onSubmit).toHaveBeenCalledWith({ recovery_code: 'ABCDE-FGHJK' }));
  });

  it('mails a code for the email method', async () => {
    const kit = await setUpAccountTest(() => [204]);
    renderAccount(<TwoFactorInputDialog opened onClose={() => undefined} method="email" onSubmit={vi.fn()} />);
    expect(await screen.findByText('Enter the 6-digit code we emailed you.')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Email me a code' }));
    expect(await screen.findByText('We sent a code to your email.')).toBeTruthy();
    expect(kit.requests.at(-1)).toMatchObject({ path: '/sso/me/2fa/email/send', method: 'POST' });
  });

  it('speaks Vietnamese', async () => {
    await setUpAccountTest(() => [404], 'vi');
    renderAccount(<TwoFactorInputDialog opened onClose={() => undefined} method="totp" onSubmit={vi.fn()} />);
    expect(await screen.findByText('Nhập mã 6 chữ số từ ứng dụng xác thực của bạn.')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Xác minh' }));
    expect(await screen.findByText('Nhập mã gồm 6 chữ số')).toBeTruthy();
  });
});

describe('RequiredTwoFactorDialog', () => {
  it('explains and links to the two-step page, in both languages', async () => {
    await setUpAccountTest(() => [404]);
    renderAccount(<RequiredTwoFactorDialog opened onClose={() => undefined} />);
    const link = await screen.findByRole('link', { name: 'Turn on two-step verification' });
    expect(link.getAttribute('href')).toBe('/security/two-step-verification');
    cleanup();

    await setUpAccountTest(() => [404], 'vi');
    renderAccount(<RequiredTwoFactorDialog opened onClose={() => undefined} />);
    expect((await screen.findByRole('link', { name: 'Bật xác thực hai bước' })).getAttribute('href')).toBe('/security/two-step-verification');
    expect(screen.getByText('Cần bật xác thực hai bước')).toBeTruthy();
  });
});
