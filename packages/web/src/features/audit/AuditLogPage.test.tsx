import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { applyLanguage } from '../../lib/language';
import { renderAccount, setUpAccountTest, type FakeServer } from '../../test/account-kit';
import { AuditLogPage } from './AuditLogPage';

afterEach(async () => {
  cleanup();
  await applyLanguage('en');
});

const ORG = '7b0c7f5e-3d1c-4a5e-9f0a-1c2d3e4f5a6b';
const event = (id: number, action: string, detail: Record<string, unknown>) => ({
  id: String(id),
  occurred_at: `2026-11-2${id}T08:30:00.000Z`,
  action,
  actor_user_id: null,
  actor_email: action === 'role_changed' ? 'boss@acme.example' : 'max@acme.example',
  target_user_id: null,
  target_email: 'max@acme.example',
  ip: '192.0.2.7',
  user_agent: 'Mozilla/5.0 Test',
  detail,
});
const first = [event(3, 'sign_in_failed', { method: 'password', reason: 'auth.invalid_credentials' }), event(2, 'role_changed', { role: 'admin', previous_role: 'member' })];
const second = [event(1, 'sign_in', { method: 'passkey', mfa: true })];

const server: FakeServer = ({ path, search }) => {
  if (path === '/organizations/administered') return [200, { items: [{ id: ORG, name: 'Acme', role: 'admin' }] }];
  if (path === `/organizations/${ORG}/audit-events`) {
    const query = new URLSearchParams(search);
    if (query.get('from') === '2026-11-05' && query.get('to') === '2026-11-01') {
      return [400, { code: 'validation_error', message: 'Choose a start date before the end date', details: { fields: { to: { code: 'audit.date_range_invalid', message: 'Choose a start date before the end date' } } } }];
    }
    return query.get('cursor') === 'c1' ? [200, { items: second, next_cursor: null }] : [200, { items: first, next_cursor: 'c1' }];
  }
  return [404];
};

describe('AuditLogPage', () => {
  it('words each entry, pages with the cursor, and sends the filters', async () => {
    const kit = await setUpAccountTest(server);
    renderAccount(<AuditLogPage />);
    const rows = await screen.findAllByTestId('audit-row');
    expect(rows.map((row) => row.getAttribute('data-action'))).toEqual(['sign_in_failed', 'role_changed']);
    expect(rows[0]!.textContent).toContain('Failed sign-in');
    expect(rows[0]!.textContent).toContain('Reason: wrong password');
    expect(rows[1]!.textContent).toContain('Role: admin');
    expect(rows[1]!.textContent).toContain('by boss@acme.example');

    fireEvent.click(screen.getByTestId('audit-older'));
    await waitFor(() => expect(screen.getAllByTestId('audit-row').map((row) => row.getAttribute('data-action'))).toEqual(['sign_in']));
    expect(screen.getByTestId('audit-row').textContent).toContain('Method: passkey');
    expect(kit.requests.at(-1)!.search).toContain('cursor=c1');
    fireEvent.click(screen.getByTestId('audit-newer'));
    await waitFor(() => expect(screen.getAllByTestId('audit-row')).toHaveLength(2));

    fireEvent.change(screen.getByTestId('audit-filter-email'), { target: { value: 'max@' } });
    fireEvent.change(screen.getByTestId('audit-filter-from'), { target: { value: '2026-11-05' } });
    fireEvent.change(screen.getByTestId('audit-filter-to'), { target: { value: '2026-11-01' } });
    fireEvent.click(screen.getByTestId('audit-apply'));
    expect((await screen.findByTestId('audit-filter-error')).textContent).toBe('Choose a start date before the end date');
    const sent = new URLSearchParams(kit.requests.at(-1)!.search);
    expect([sent.get('email'), sent.get('from'), sent.get('to'), sent.get('cursor')]).toEqual(['max@', '2026-11-05', '2026-11-01', null]);
  });

  it('words the company SSO settings changes, in English and Vietnamese', async () => {
    const sso = [
      event(6, 'sso_provider_changed', { protocol: 'saml', identifier: 'acme', previous_protocol: 'oidc', previous_identifier: 'acme-old' }),
      event(5, 'sso_required_changed', { require_sso: true }),
      event(4, 'sso_domain_verified', { domain: 'acme.example', method: 'dns' }),
    ];
    const ssoServer: FakeServer = ({ path }) =>
      path === '/organizations/administered' ? [200, { items: [{ id: ORG, name: 'Acme', role: 'admin' }] }] : path === `/organizations/${ORG}/audit-events` ? [200, { items: sso, next_cursor: null }] : [404];
    await setUpAccountTest(ssoServer);
    renderAccount(<AuditLogPage />);
    const rows = await screen.findAllByTestId('audit-row');
    expect(rows[0]!.textContent).toContain('SSO identity provider changed');
    expect(rows[0]!.textContent).toContain('Protocol: SAML 2.0');
    expect(rows[0]!.textContent).toContain('Previous protocol: OpenID Connect');
    expect(rows[0]!.textContent).toContain('Previous SSO identifier: acme-old');
    expect(rows[1]!.textContent).toContain('Require SSO changed');
    expect(rows[1]!.textContent).toContain('SSO required for members');
    expect(rows[2]!.textContent).toContain('SSO domain verified');
    expect(rows[2]!.textContent).toContain('Domain: acme.example');
    expect(rows[2]!.textContent).toContain('Verified by DNS TXT record');
    cleanup();

    await setUpAccountTest(ssoServer, 'vi');
    renderAccount(<AuditLogPage />);
    const vi = await screen.findAllByTestId('audit-row');
    expect(vi[0]!.textContent).toContain('Đổi nhà cung cấp danh tính SSO');
    expect(vi[2]!.textContent).toContain('Xác minh bằng bản ghi DNS TXT');
  });

  it('shows the refusal to someone who administers nothing, in Vietnamese', async () => {
    await setUpAccountTest(({ path }) => (path === '/organizations/administered' ? [200, { items: [] }] : [404]), 'vi');
    renderAccount(<AuditLogPage />);
    expect((await screen.findByTestId('audit-log-refused')).textContent).toContain('Chỉ chủ sở hữu hoặc quản trị viên');
  });
});
