import { cleanup, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { applyLanguage } from '../../lib/language';
import { renderAccount, setUpAccountTest } from '../../test/account-kit';
import { WhcDepositSection } from './WhcDepositSection';

afterEach(async () => {
  cleanup();
  await applyLanguage('en');
});

const ADDRESS = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';
const deposit = (status: string, confirmations: number) => ({
  id: `d-${status}`,
  tx_hash: `0x${'cd'.repeat(32)}`,
  log_index: 0,
  amount: '1250000000',
  status,
  confirmations,
  created_at: '2026-11-27T01:00:00.000Z',
  credited_at: status === 'completed' ? '2026-11-27T01:01:00.000Z' : null,
});

describe('WhcDepositSection', () => {
  it('says WHC deposits are not available when the server takes none, and asks for no address', async () => {
    const asked: string[] = [];
    await setUpAccountTest(({ path, method }) => {
      asked.push(`${method} ${path}`);
      return path === '/sso/me/wallet/WHC/deposits' ? [200, { enabled: false, network: 'BEP20', confirmations: 15, items: [] }] : [404];
    });
    renderAccount(<WhcDepositSection />);
    expect((await screen.findByTestId('whc-deposit-unavailable')).textContent).toBe('WHC deposits are not available now');
    expect(asked).not.toContain('POST /sso/me/wallet/WHC/deposit-address');
  });

  it('shows the address with its QR code, the network, the confirmations needed and each deposit\'s status', async () => {
    await setUpAccountTest(({ path, method }) => {
      if (path === '/sso/me/wallet/WHC/deposits') return [200, { enabled: true, network: 'BEP20', confirmations: 15, items: [deposit('pending', 4), deposit('completed', 15), deposit('ignored', 0)] }];
      if (path === '/sso/me/wallet/WHC/deposit-address' && method === 'POST') return [200, { address: ADDRESS, qr_image: 'data:image/png;base64,AAAA', network: 'BEP20', confirmations: 15 }];
      return [404];
    });
    renderAccount(<WhcDepositSection />);
    expect((await screen.findByTestId('whc-deposit-address')).textContent).toBe(ADDRESS);
    expect(screen.getByTestId('whc-deposit-qr').getAttribute('alt')).toBe('QR code of your WHC deposit address');
    expect(screen.getByTestId('whc-deposit-network').textContent).toBe('BEP20 (BNB Smart Chain)');
    expect(screen.getByTestId('whc-deposit-notice').textContent).toContain('A deposit is credited after 15 confirmations.');
    expect(screen.getByRole('button', { name: 'Copy: Your WHC deposit address' })).toBeTruthy();
    expect(screen.getAllByTestId('whc-deposit-status').map((badge) => badge.textContent)).toEqual(['Pending: 4 of 15 confirmations', 'Completed', 'Too small, not credited']);
  });
});
