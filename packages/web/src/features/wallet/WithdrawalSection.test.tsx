import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { applyLanguage } from '../../lib/language';
import { renderAccount, setUpAccountTest, type FakeServer } from '../../test/account-kit';
import { WithdrawalSection } from './WithdrawalSection';

afterEach(async () => {
  cleanup();
  await applyLanguage('en');
});

const ADDRESS = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';
const item = (status: string, tx: string | null) => ({
  id: `w-${status}`,
  entry_id: `e-${status}`,
  currency: 'WHC',
  address: ADDRESS,
  amount: '150000000',
  status,
  tx_hash: tx,
  created_at: '2026-11-27T01:00:00.000Z',
  updated_at: '2026-11-27T01:00:00.000Z',
});
const otp = () => within(screen.getAllByTestId('otp-input').at(-1)!).getAllByRole('textbox');

describe('WithdrawalSection', () => {
  it('lists withdrawals with their status, and says when this server sends none', async () => {
    await setUpAccountTest(({ path }) => (path === '/sso/me/wallet/WHC/withdrawals' ? [200, { enabled: false, items: [item('pending', null), item('failed', `0x${'ab'.repeat(32)}`)] }] : [404]));
    renderAccount(<WithdrawalSection />);
    expect(await screen.findByTestId('withdrawal-unavailable')).toBeTruthy();
    expect(screen.queryByTestId('withdrawal-form')).toBeNull();
    expect(screen.getAllByTestId('withdrawal-status').map((badge) => badge.textContent)).toEqual(['Pending', 'Failed, returned']);
  });

  it('asks for a code, then for the password and a code when the server says the address is new', async () => {
    const server: FakeServer = ({ path, method, body }) => {
      if (path === '/sso/me/wallet/WHC/withdrawals' && method === 'GET') return [200, { enabled: true, items: [] }];
      if (path === '/sso/me/2fa') return [200, { method: 'totp', recovery_codes_remaining: 10 }];
      if (path === '/sso/me/wallet/WHC/withdrawals' && method === 'POST') {
        if (!(body as { password?: string }).password) return [400, { code: 'wallet.password_required', message: 'This is your first transfer to this address: enter your password too' }];
        return [201, item('pending', null)];
      }
      return [404];
    };
    const kit = await setUpAccountTest(server);
    renderAccount(<WithdrawalSection />);
    fireEvent.change(await screen.findByTestId('withdrawal-address'), { target: { value: '0x1234' } });
    fireEvent.change(screen.getByTestId('withdrawal-amount'), { target: { value: '1.5' } });
    fireEvent.click(screen.getByTestId('withdrawal-submit'));
    // The mistyped address is said once, on its field: no alert, no toast.
    expect((await screen.findByText(/Enter a BEP20 address/)).closest('.mantine-TextInput-root')?.querySelector('input')?.getAttribute('aria-invalid')).toBe('true');
    expect(screen.queryByRole('alert')).toBeNull();
    expect(kit.toasts).toEqual([]);

    fireEvent.change(screen.getByTestId('withdrawal-address'), { target: { value: ADDRESS } });
    fireEvent.click(screen.getByTestId('withdrawal-submit'));
    fireEvent.change((await waitFor(() => otp()))[0]!, { target: { value: '123456' } });
    const password = await screen.findByTestId('confirm-password');
    fireEvent.change(password, { target: { value: 'plum-orbit-cactus-917' } });
    fireEvent.change(otp()[0]!, { target: { value: '654321' } });
    fireEvent.click(screen.getAllByRole('button', { name: 'Send' }).at(-1)!);
    await waitFor(() => expect(kit.toasts).toContainEqual({ kind: 'success', message: 'Withdrawal sent: pending until confirmed on chain' }));
    const posts = kit.requests.filter((request) => request.method === 'POST').map((request) => request.body as Record<string, string>);
    expect(posts).toHaveLength(2);
    expect(posts[0]).toMatchObject({ address: ADDRESS, amount: '1.5', code: '123456' });
    expect(posts[0]!.password).toBeUndefined();
    expect(posts[1]).toMatchObject({ address: ADDRESS, amount: '1.5', code: '654321', password: 'plum-orbit-cactus-917', idempotency_key: posts[0]!.idempotency_key });
  });

  it('reports a refused withdrawal once: the failure toast, no second copy on the form', async () => {
    const kit = await setUpAccountTest(({ path, method }) => {
      if (path === '/sso/me/wallet/WHC/withdrawals' && method === 'GET') return [200, { enabled: true, items: [] }];
      if (path === '/sso/me/2fa') return [200, { method: 'totp', recovery_codes_remaining: 10 }];
      if (path === '/sso/me/wallet/WHC/withdrawals' && method === 'POST') return [400, { code: 'wallet.insufficient_balance', message: 'Your balance is too low for this transfer' }];
      return [404];
    });
    renderAccount(<WithdrawalSection />);
    fireEvent.change(await screen.findByTestId('withdrawal-address'), { target: { value: ADDRESS } });
    fireEvent.change(screen.getByTestId('withdrawal-amount'), { target: { value: '1.5' } });
    fireEvent.click(screen.getByTestId('withdrawal-submit'));
    fireEvent.change((await waitFor(() => otp()))[0]!, { target: { value: '123456' } });
    await waitFor(() => expect(kit.toasts.length).toBeGreaterThan(0));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(kit.toasts).toEqual([{ kind: 'error', message: 'Your balance is too low for this transfer' }]);
    expect(screen.queryByText('Your balance is too low for this transfer')).toBeNull();
    // What was typed stays for another try.
    expect((screen.getByTestId('withdrawal-amount') as HTMLInputElement).value).toBe('1.5');
  });
});
