import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { applyLanguage } from '../../lib/language';
import { renderAccount, setUpAccountTest } from '../../test/account-kit';
import { CheckoutSection } from './CheckoutSection';

afterEach(async () => {
  cleanup();
  await applyLanguage('en');
});

const quote = { plan: 'pwdmanager.premium', months: 12, price: 1_548, discount: 0, subtotal: 1_548, credit: 0, total: 1_548, currency: 'USD', due_now: 0, trial_days: 14, promo_code: null };

async function open(cards: unknown[]) {
  const kit = await setUpAccountTest(({ path }) => (path === '/sso/me/cards' ? [200, cards] : path === '/sso/me/checkout/quote' ? [200, quote] : [404]));
  renderAccount(<CheckoutSection changing={null} onDone={() => undefined} />);
  await screen.findByTestId('checkout-totals');
  return kit;
}

describe('CheckoutSection', () => {
  it('says nothing in red before the person acts; paying without a card says to add one, and nothing is sent', async () => {
    const kit = await open([]);
    await screen.findByTestId('checkout-card-hint');
    expect(screen.queryByRole('alert')).toBeNull();
    expect(screen.queryByText('Add a payment card before subscribing.')).toBeNull();

    fireEvent.click(screen.getByTestId('checkout-pay'));
    expect((await screen.findByTestId('checkout-failure')).textContent).toBe('Add a payment card before subscribing.');
    expect(screen.queryByTestId('checkout-card-hint')).toBeNull();
    expect(kit.requests.some((request) => request.method === 'POST' && request.path === '/sso/me/subscriptions')).toBe(false);
  });

  it('offers each plan by its name once, at the catalogue\'s stated price', async () => {
    await open([]);
    fireEvent.click(screen.getByTestId('checkout-plan'));
    const options = await waitFor(() => {
      const found = screen.getAllByRole('option').map((option) => option.textContent);
      expect(found.length).toBeGreaterThan(5);
      return found;
    });
    expect(options).toContain('Locker Password Manager Premium · from $1.29/mo');
    expect(options).toContain('WhiteHub Bug Bounty · $4,790/yr');
    expect(options).toContain('SafeChain · $278/yr');
    expect(options).toContain('CyStack Vulnerability Scanner · $950/yr');
    expect(options.join(' ')).not.toMatch(/Bug Bounty Bug Bounty|SafeChain SafeChain|\$399\.17|\$79\.17/);
  });
});
