import { fireEvent, screen, waitFor } from '@testing-library/react';
import type { Stripe } from '@stripe/stripe-js';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { renderAccount, setUpAccountTest, type AccountTestKit } from '../../test/account-kit';
import StripeCardForm from './StripeCardForm';

/**
 * A stand-in for Stripe.js (it cannot be downloaded here): the calls react-stripe-js and the
 * form make, with the answers Stripe documents. The Payment Element itself is Stripe's frame;
 * here it mounts nothing.
 */
function fakeStripe(confirm: () => unknown) {
  const element = { mount: vi.fn(), unmount: vi.fn(), destroy: vi.fn(), update: vi.fn(), on: vi.fn(), off: vi.fn(), once: vi.fn(), collapse: vi.fn(), focus: vi.fn() };
  element.on.mockReturnValue(element);
  const elements = { create: vi.fn(() => element), getElement: vi.fn(() => element), submit: vi.fn(async () => ({})), update: vi.fn(), fetchUpdates: vi.fn(async () => ({})) };
  const stripe = {
    elements: vi.fn(() => elements),
    createToken: vi.fn(),
    createPaymentMethod: vi.fn(),
    confirmCardPayment: vi.fn(),
    confirmSetup: vi.fn(async () => confirm()),
    _registerWrapper: vi.fn(),
    registerAppInfo: vi.fn(),
  };
  return { stripe, elements, element, loaded: Promise.resolve(stripe as unknown as Stripe) };
}

let kit: AccountTestKit;
beforeEach(async () => {
  kit = await setUpAccountTest(({ path, method, body }) => {
    if (method === 'POST' && path === '/sso/me/cards/setup') return [201, { client_secret: 'seti_1_secret_abc' }];
    if (method === 'POST' && path === '/sso/me/cards') {
      return [201, { id: '9b0e3f7e-0000-4000-8000-000000000001', brand: 'visa', last4: '4242', exp_month: 12, exp_year: 2034, country: null, is_default: true, created_at: new Date().toISOString(), subscriptions: 0, ...(body as object) }];
    }
    return [404, { code: 'not_found', message: 'Resource not found' }];
  });
});
const cardsSaved = () => kit.requests.filter((request) => request.method === 'POST' && request.path === '/sso/me/cards').map((request) => request.body);

function show(fake: ReturnType<typeof fakeStripe>, onDone = vi.fn()) {
  renderAccount(<StripeCardForm publishableKey="pk_test_local" onDone={onDone} stripe={fake.loaded} />);
  return onDone;
}
const type = (label: string, value: string) => fireEvent.change(screen.getByLabelText(label), { target: { value } });
const fillAddress = () => {
  type('Cardholder name', 'Ada Lovelace');
  type('City', 'Da Nang');
  type('State', 'DN');
  type('ZIP code', '550000');
};

describe("the add-card form with Stripe's Payment Element", () => {
  it('confirms the SetupIntent the server made, with the billing address, and saves the payment method Stripe returns', async () => {
    const fake = fakeStripe(() => ({ setupIntent: { id: 'seti_1', status: 'succeeded', payment_method: 'pm_from_element' } }));
    const onDone = show(fake);
    await screen.findByTestId('stripe-payment-element');
    expect(fake.stripe.elements).toHaveBeenCalledWith(expect.objectContaining({ clientSecret: 'seti_1_secret_abc', locale: 'en' }));
    await waitFor(() =>
      expect(fake.elements.create).toHaveBeenCalledWith('payment', expect.objectContaining({ fields: { billingDetails: { name: 'never', address: { city: 'never', state: 'never', postalCode: 'never' } } } })),
    );
    fillAddress();
    fireEvent.click(screen.getByTestId('save-card'));
    await waitFor(() => expect(onDone).toHaveBeenCalled());
    expect(fake.stripe.confirmSetup).toHaveBeenCalledWith(
      expect.objectContaining({
        elements: fake.elements,
        redirect: 'if_required',
        confirmParams: expect.objectContaining({ payment_method_data: { billing_details: { name: 'Ada Lovelace', address: { city: 'Da Nang', state: 'DN', postal_code: '550000' } } } }),
      }),
    );
    expect(cardsSaved()).toEqual([{ token: 'pm_from_element', cardholder: 'Ada Lovelace', city: 'Da Nang', state: 'DN', zip: '550000', make_default: false }]);
    expect(kit.toasts).toContainEqual({ kind: 'success', message: 'Card added' });
  });

  it('shows the generic decline message when Stripe declines the card, and saves nothing', async () => {
    const fake = fakeStripe(() => ({ error: { type: 'card_error', code: 'card_declined', message: 'Your card has insufficient funds.' } }));
    show(fake);
    await screen.findByTestId('stripe-payment-element');
    fillAddress();
    fireEvent.click(screen.getByTestId('save-card'));
    expect((await screen.findByTestId('card-failure')).textContent).toBe('Your card was declined.');
    expect(cardsSaved()).toEqual([]);
  });

  it('asks for the billing address before confirming anything with Stripe', async () => {
    const fake = fakeStripe(() => ({ setupIntent: { payment_method: 'pm_x' } }));
    show(fake);
    await screen.findByTestId('stripe-payment-element');
    // The button waits for Stripe.js.
    await waitFor(() => expect(screen.getByTestId('save-card').hasAttribute('disabled')).toBe(false));
    fireEvent.click(screen.getByTestId('save-card'));
    expect(await screen.findAllByText('This field may not be blank.')).toHaveLength(4);
    expect(fake.stripe.confirmSetup).not.toHaveBeenCalled();
  });

  it('says so when Stripe.js cannot be loaded', async () => {
    renderAccount(<StripeCardForm publishableKey="pk_test_local" onDone={vi.fn()} stripe={Promise.resolve(null)} />);
    expect((await screen.findByTestId('card-failure')).textContent).toBe("Stripe's secure card form could not be loaded. Try again later.");
  });
});
