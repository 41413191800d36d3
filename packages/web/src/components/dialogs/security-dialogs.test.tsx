import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../lib/api';
import { applyLanguage } from '../../lib/language';
import { CeremonyError } from '../passkey/ceremony';
import { PasskeyDeviceTable } from '../PasskeyDeviceTable';
import { PasskeyCreateDialog } from './PasskeyCreateDialog';
import { PasskeyPasswordChangeDialog } from './PasskeyPasswordChangeDialog';
import { PasskeyPasswordConfirmDialog } from './PasskeyPasswordConfirmDialog';
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
    expect(await screen.findByText('The code is 6 digits')).toBeTruthy();
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
    expect(await screen.findByText('Mã gồm 6 chữ số')).toBeTruthy();
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

describe('PasskeyPasswordChangeDialog', () => {
  it('checks the length and the confirmation before setting a first password', async () => {
    await setUpAccountTest(() => [404]);
    const onSubmit = vi.fn(async () => undefined);
    renderAccount(<PasskeyPasswordChangeDialog opened onClose={() => undefined} onSubmit={onSubmit} />);

    fireEvent.change(await screen.findByLabelText('New password'), { target: { value: 'short' } });
    fireEvent.change(screen.getByLabelText('Confirm password'), { target: { value: 'other' } });
    fireEvent.click(screen.getByRole('button', { name: 'Set password' }));
    expect(await screen.findByText('Password must be at least 8 characters')).toBeTruthy();
    expect(screen.getByText('Confirm password is not match!')).toBeTruthy();
    expect(screen.queryByLabelText(/Current password/)).toBeNull();

    fireEvent.change(screen.getByLabelText('New password'), { target: { value: 'Orchid-Lantern-58' } });
    fireEvent.change(screen.getByLabelText('Confirm password'), { target: { value: 'Orchid-Lantern-58' } });
    fireEvent.click(screen.getByRole('button', { name: 'Set password' }));
    await waitFor(() => expect(onSubmit).toHaveBeenCalledWith({ new_password: 'Orchid-Lantern-58', confirm_password: 'Orchid-Lantern-58' }));
  });

  it('puts the server refusal under its field, in Vietnamese', async () => {
    await setUpAccountTest(() => [404], 'vi');
    const onSubmit = vi.fn(async () => {
      throw new ApiError({ status: 400, code: 'auth.password_too_common', message: 'x', serverMessage: 'This password is too common. Choose another one' });
    });
    renderAccount(<PasskeyPasswordChangeDialog opened onClose={() => undefined} onSubmit={onSubmit} />);
    fireEvent.click(await screen.findByRole('button', { name: 'Đặt mật khẩu' }));
    expect(await screen.findByText('Vui lòng nhập mật khẩu')).toBeTruthy();
    expect(screen.getByText('Trường này không được để trống.')).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Mật khẩu mới'), { target: { value: 'password123' } });
    fireEvent.change(screen.getByLabelText('Xác nhận mật khẩu'), { target: { value: 'password123' } });
    fireEvent.click(screen.getByRole('button', { name: 'Đặt mật khẩu' }));
    await waitFor(() => expect(onSubmit).toHaveBeenCalled());
    expect(await screen.findByText(/Mật khẩu này quá phổ biến/)).toBeTruthy();
  });
});

describe('PasskeyPasswordConfirmDialog', () => {
  it('offers to set a password first', async () => {
    await setUpAccountTest(() => [404]);
    const onSetPassword = vi.fn();
    renderAccount(<PasskeyPasswordConfirmDialog opened onClose={() => undefined} onSetPassword={onSetPassword} />);
    expect(await screen.findByText(/your account signs in with passkeys only/)).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Set a password' }));
    expect(onSetPassword).toHaveBeenCalled();
  });
});

describe('PasskeyCreateDialog', () => {
  it('sends the optional name and says why the browser refused', async () => {
    await setUpAccountTest(() => [404]);
    const onCreate = vi.fn(async (): Promise<unknown> => {
      throw new CeremonyError('cancelled');
    });
    renderAccount(<PasskeyCreateDialog opened onClose={() => undefined} onCreate={onCreate} />);
    fireEvent.change(await screen.findByTestId('passkey-name'), { target: { value: '  Work laptop ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Create passkey' }));
    expect(await screen.findByText('The passkey was not created: the request was cancelled or timed out.')).toBeTruthy();
    expect(onCreate).toHaveBeenCalledWith('Work laptop');

    onCreate.mockImplementationOnce(async () => {
      throw new ApiError({ status: 400, code: 'auth.passkey_failed', message: 'Passkeys authentication failed', serverMessage: 'Passkeys authentication failed' });
    });
    fireEvent.click(screen.getByRole('button', { name: 'Create passkey' }));
    expect(await screen.findByText('Passkeys authentication failed')).toBeTruthy();
  });

  it('speaks Vietnamese', async () => {
    await setUpAccountTest(() => [404], 'vi');
    const onCreate = vi.fn(async (): Promise<unknown> => {
      throw new CeremonyError('failed');
    });
    renderAccount(<PasskeyCreateDialog opened onClose={() => undefined} onCreate={onCreate} />);
    fireEvent.click(await screen.findByRole('button', { name: 'Tạo khóa truy cập' }));
    expect(await screen.findByText('Xác thực bằng khóa truy cập thất bại')).toBeTruthy();
    expect(onCreate).toHaveBeenCalledWith(undefined);
  });
});

describe('PasskeyDeviceTable', () => {
  const passkeys = [{ id: 'pk1', name: 'MacBook', created_at: '2025-03-07T14:05:00Z', last_used_at: null, backed_up: true }];

  it('lists, renames (not blank) and removes after a confirmation', async () => {
    await setUpAccountTest(() => [404]);
    const onRename = vi.fn(async () => undefined);
    const onRemove = vi.fn(async () => undefined);
    renderAccount(<PasskeyDeviceTable passkeys={passkeys} onRename={onRename} onRemove={onRemove} />);
    const row = await screen.findByTestId('passkey-row');
    expect(within(row).getByText('MacBook')).toBeTruthy();
    expect(within(row).getByText('Never')).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'Rename: MacBook' }));
    const input = await screen.findByTestId('passkey-rename-input');
    fireEvent.change(input, { target: { value: '   ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('This field may not be blank.')).toBeTruthy();
    fireEvent.change(input, { target: { value: 'Laptop' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(onRename).toHaveBeenCalledWith('pk1', 'Laptop'));

    fireEvent.click(screen.getByRole('button', { name: 'Remove: MacBook' }));
    expect(await screen.findByText('You will no longer be able to sign in with MacBook.')).toBeTruthy();
    expect(onRemove).not.toHaveBeenCalled();
    fireEvent.click(screen.getByTestId('confirm-action'));
    await waitFor(() => expect(onRemove).toHaveBeenCalledWith('pk1'));
  });

  it('speaks Vietnamese, with Vietnamese dates', async () => {
    await setUpAccountTest(() => [404], 'vi');
    renderAccount(<PasskeyDeviceTable passkeys={passkeys} onRename={vi.fn()} onRemove={vi.fn()} />);
    expect(await screen.findByText('Dùng lần cuối')).toBeTruthy();
    expect(screen.getByText('Chưa dùng')).toBeTruthy();
    expect(screen.getByText(/^07\/03\/2025 14:05$/)).toBeTruthy();
  });
});
