import { cleanup, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { Card, Subscription } from '@portal/contracts';
import { applyLanguage } from '../../lib/language';
import { renderAccount, setUpAccountTest } from '../../test/account-kit';
import { SubscriptionsSection } from './SubscriptionsSection';

afterEach(async () => {
  cleanup();
  await applyLanguage('en');
});

const subscription = (fields: Partial<Subscription>): Subscription => ({
  id: 'sub-1',
  product: 'pwdmanager',
  plan: 'pwdmanager.business',
  plan_name: 'Business',
  months: 1,
  seats: 5,
  currency: 'USD',
  price: 2_495,
  status: 'trialing',
  trial_ends_at: '2026-12-13T10:00:00.000Z',
  current_period_start: '2026-11-29T10:00:00.000Z',
  current_period_end: '2026-12-13T10:00:00.000Z',
  next_charge_at: '2026-12-13T10:00:00.000Z',
  cancel_at_period_end: false,
  canceled_at: null,
  card_id: null,
  organization_id: null,
  lifetime: false,
  ...fields,
});

const card: Card = {
  id: 'card-1',
  brand: 'visa',
  last4: '4242',
  exp_month: 12,
  exp_year: 2030,
  cardholder: 'Ada Lovelace',
  city: 'Hanoi',
  state: 'HN',
  zip: '100000',
  country: null,
  is_default: true,
  created_at: '2026-11-01T00:00:00.000Z',
  subscriptions: 1,
};

async function show(subscriptions: Subscription[], cards: Card[]) {
  await setUpAccountTest(({ path }) => (path === '/sso/me/subscriptions' ? [200, subscriptions] : path === '/sso/me/cards' ? [200, cards] : [404]));
  renderAccount(<SubscriptionsSection onChange={() => undefined} />);
  return screen.findAllByTestId('subscription-row');
}

describe('SubscriptionsSection', () => {
  it('shows a trial with its product, seats, end date and the card that pays after it, the price per its period', async () => {
    const [row] = await show([subscription({})], [card]);
    const cells = within(row!);
    expect(cells.getByTestId('subscription-plan').textContent).toBe('Locker Password Manager Business');
    expect(row!.textContent).toContain('1 month · 5 seats');
    expect(cells.getByTestId('subscription-status').textContent).toBe('Active');
    expect(cells.getByTestId('subscription-trial').textContent).toMatch(/^Trial ends .*2026/);
    expect(cells.getByTestId('subscription-trial-card').textContent).toBe('Card on file: Visa •••• 4242');
    expect(cells.getByTestId('subscription-price').textContent).toBe('$24.95/mo');
  });

  it('says a trial without a card ends without a charge', async () => {
    const [row] = await show([subscription({})], []);
    expect(within(row!).getByTestId('subscription-trial-card').textContent).toBe('No card on file: the trial ends without a charge');
  });

  it('names a plan called after its product once, and a yearly price as stated', async () => {
    const [row] = await show(
      [subscription({ product: 'bugbounty', plan: 'bugbounty.standard', plan_name: 'Bug Bounty', status: 'active', trial_ends_at: null, months: 12, seats: 1, price: 479_000 })],
      [card],
    );
    const cells = within(row!);
    expect(cells.getByTestId('subscription-plan').textContent).toBe('WhiteHub Bug Bounty');
    expect(row!.textContent).not.toContain('seat');
    expect(cells.queryByTestId('subscription-trial-card')).toBeNull();
    expect(cells.getByTestId('subscription-price').textContent).toBe('$4,790/yr');
  });
});
