import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { applyLanguage } from '../../lib/language';
import { renderAccount, setUpAccountTest } from '../../test/account-kit';
import { DepositSection } from './DepositSection';

afterEach(async () => {
  cleanup();
  await applyLanguage('en');
});

const REFUSAL = 'Enter a whole amount from ₫10,000 to ₫499,999,999';

describe('DepositSection', () => {
  it('reports a refused deposit order once: the failure toast, no second copy in the dialog, the amount kept', async () => {
    const kit = await setUpAccountTest(({ path, method }) => {
      if (path === '/sso/me/wallet/VND/deposits' && method === 'GET') return [200, { enabled: true, items: [] }];
      if (path === '/sso/me/wallet/VND/deposits' && method === 'POST') return [400, { code: 'wallet.deposit_amount_invalid', message: REFUSAL, details: { min: '₫10,000', max: '₫499,999,999' } }];
      return [404];
    });
    renderAccount(<DepositSection />);
    const open = await screen.findByTestId('deposit-open');
    // Enabled once the server says it takes deposits.
    await waitFor(() => expect(open.hasAttribute('disabled')).toBe(false));
    fireEvent.click(open);
    const dialog = within(await screen.findByRole('dialog'));
    fireEvent.change(dialog.getByLabelText(/Amount to deposit/), { target: { value: '5000' } });
    fireEvent.click(dialog.getByTestId('deposit-submit'));
    await waitFor(() => expect(kit.toasts.length).toBeGreaterThan(0));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(kit.toasts).toEqual([{ kind: 'error', message: REFUSAL }]);
    expect(screen.queryByText(REFUSAL)).toBeNull();
    expect((dialog.getByLabelText(/Amount to deposit/) as HTMLInputElement).value).toBe('5000');
  });
});
