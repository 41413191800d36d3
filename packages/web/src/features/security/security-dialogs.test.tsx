import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../lib/api';
import { applyLanguage } from '../../lib/language';
import { CeremonyError } from '../../components/passkey/ceremony';
import { PasskeyDeviceTable } from './PasskeyDeviceTable';
import { PasskeyCreateDialog } from './PasskeyCreateDialog';
import { PasskeyPasswordChangeDialog } from './PasskeyPasswordChangeDialog';
import { PasskeyPasswordConfirmDialog } from './PasskeyPasswordConfirmDialog';
import { renderAccount, setUpAccountTest } from '../../test/account-kit';

afterEach(async () => {
  cleanup();
  await applyLanguage('en');
});

describe('PasskeyPasswordChangeDialog', () => {
  it('checks the length and the confirmation before setting a first password', async () => {
    await setUpAccountTest(() => [404]);
    const onSubmit = vi.fn(async () => undefined);
    renderAccount(<PasskeyPasswordChangeDialog opened onClose={() => undefined} onSubmit={onSubmit} />);

    fireEvent.change(await screen.findByLabelText('New password'), { target: { value: 'short' } });
    fireEvent.change(screen.getByLabelText('Confirm password'), { target: { value: 'other' } });
    fireEvent.click(screen.getByRole('button', { name: 'Set password' }));
    expect(await screen.findByText('Enter a password of at least 8 characters')).toBeTruthy();
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
      throw new ApiError({ status: 400, code: 'auth.password_too_common', message: 'x', serverMessage: 'Choose a less common password' });
    });
    renderAccount(<PasskeyPasswordChangeDialog opened onClose={() => undefined} onSubmit={onSubmit} />);
    fireEvent.click(await screen.findByRole('button', { name: 'Đặt mật khẩu' }));
    expect(await screen.findByText('Nhập mật khẩu của bạn')).toBeTruthy();
    expect(screen.getByText('Trường này không được để trống.')).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Mật khẩu mới'), { target: { value: 'password123' } });
    fireEvent.change(screen.getByLabelText('Xác nhận mật khẩu'), { target: { value: 'password123' } });
    fireEvent.click(screen.getByRole('button', { name: 'Đặt mật khẩu' }));
    await waitFor(() => expect(onSubmit).toHaveBeenCalled());
    expect(await screen.findByText(/Chọn mật khẩu ít phổ biến hơn/)).toBeTruthy();
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
