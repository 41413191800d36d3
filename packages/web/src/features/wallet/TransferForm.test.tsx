import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { applyLanguage } from '../../lib/language';
import { renderAccount, setUpAccountTest, type FakeServer } from '../../test/account-kit';
import { UsdWalletPage } from './UsdWalletPage';

afterEach(async () => {
  cleanup();
  await applyLanguage('en');
});

const wallet = (refusal: [number, unknown]): FakeServer => ({ path, method }) => {
  if (path === '/sso/me/wallet') return [200, { balances: [{ currency: 'USD', minor: '0' }, { currency: 'VND', minor: '0' }, { currency: 'WHC', minor: '0' }] }];
  if (path === '/sso/me/wallet/USD/transactions') return [200, { items: [], total: 0, page: 1, page_size: 10 }];
  if (path === '/sso/me/wallet/USD/partner-transfers') return [200, { enabled: false, items: [] }];
  if (path === '/sso/me/wallet/USD/transfers' && method === 'POST') return refusal;
  return [404];
};

async function refuse(refusal: [number, unknown]) {
  const kit = await setUpAccountTest(wallet(refusal));
  renderAccount(<UsdWalletPage />);
  expect((await screen.findByTestId('wallet-balance')).textContent).toBe('$0');
  const form = within(screen.getByTestId('transfer-form'));
  fireEvent.change(form.getByLabelText(/Recipient/), { target: { value: 'bob@example.com' } });
  fireEvent.change(form.getByLabelText(/Amount/), { target: { value: '5' } });
  fireEvent.click(form.getByTestId('transfer-submit'));
  await waitFor(() => expect(kit.toasts.length).toBeGreaterThan(0));
  // Nothing else arrives a moment later.
  await new Promise((resolve) => setTimeout(resolve, 50));
  return kit;
}

describe('the USD page and its transfer', () => {
  it('says where USD comes from and links to the payout settings', async () => {
    await setUpAccountTest(wallet([400, {}]));
    renderAccount(<UsdWalletPage />);
    expect((await screen.findByRole('heading', { level: 1 })).textContent).toBe('USD wallet');
    expect(screen.getByText(/Bug-bounty rewards paid in USD/)).toBeTruthy();
    expect(screen.getByTestId('wallet-usd-payout-link').getAttribute('href')).toBe('/wallet/payout');
  });

  it('reports a refused transfer once: the failure toast, no second copy in the form', async () => {
    const kit = await refuse([400, { code: 'wallet.insufficient_balance', message: 'Your balance is too low for this transfer' }]);
    expect(kit.toasts).toEqual([{ kind: 'error', message: 'Your balance is too low for this transfer' }]);
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('says which 403 it was (a declined re-authentication), once, not the generic permission text of the policy', async () => {
    const kit = await refuse([403, { code: 'auth.reauth_required', message: 'Confirm it is you to continue' }]);
    expect(kit.toasts).toEqual([{ kind: 'error', message: 'Confirm it is you to continue' }]);
  });
});
