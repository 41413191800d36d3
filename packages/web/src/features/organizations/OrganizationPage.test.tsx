import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { MyOrganization, OrganizationRole } from '@portal/contracts';
import { renderAccount, setUpAccountTest, type FakeServer } from '../../test/account-kit';
import { OrganizationPage } from './OrganizationPage';

const joined = '2026-11-01T10:00:00.000Z';

function organization(role: OrganizationRole): MyOrganization {
  const me = `${role}@acme.example`;
  return {
    id: '00000000-0000-4000-8000-000000000001',
    name: 'Acme Corp',
    role,
    email: me,
    members: [
      { email: 'owner@acme.example', name: 'Olivia Owner', role: 'owner', joined_at: joined },
      { email: 'admin@acme.example', name: 'Adam Admin', role: 'admin', joined_at: joined },
      { email: 'member@acme.example', name: null, role: 'member', joined_at: joined },
    ],
    invitations: role === 'member' ? [] : [{ id: '00000000-0000-4000-8000-000000000002', email: 'next@else.example', role: 'owner', invited_at: joined, expires_at: '2026-11-08T10:00:00.000Z', expired: false }],
  };
}

const serve =
  (role: OrganizationRole, extra: FakeServer = () => [404]): FakeServer =>
  (request) =>
    request.method === 'GET' && request.path === '/sso/me/organization' ? [200, organization(role)] : extra(request);

describe('/organization', () => {
  it('shows a member the list only: no invite form, role menus or removals', async () => {
    await setUpAccountTest(serve('member'));
    renderAccount(<OrganizationPage />);
    expect(await screen.findByRole('heading', { name: 'Acme Corp' })).toBeDefined();
    expect(screen.getAllByTestId('organization-member')).toHaveLength(3);
    expect(screen.queryByTestId('invite-form')).toBeNull();
    expect(screen.queryByRole('button', { name: /^Remove/ })).toBeNull();
    expect(within(screen.getByTestId('organization-members')).queryByRole('combobox')).toBeNull();
    expect(screen.getByTestId('leave-organization')).toBeDefined();
  });

  it('lets an admin manage members and admins but never an owner, nor give the owner role', async () => {
    await setUpAccountTest(serve('admin'));
    renderAccount(<OrganizationPage />);
    await screen.findByRole('heading', { name: 'Acme Corp' });
    expect(screen.queryByRole('button', { name: 'Remove owner@acme.example' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Remove member@acme.example' })).toBeDefined();
    const role = screen.getByLabelText('Role of member@acme.example') as HTMLSelectElement;
    expect([...role.options].map((option) => option.value)).toEqual(['admin', 'member']);
    expect(screen.queryByLabelText('Role of owner@acme.example')).toBeNull();
    // The invite form offers member and admin; the owner's invitation has no resend or revoke.
    const form = screen.getByTestId('invite-form');
    expect([...(within(form).getByLabelText('Role') as HTMLSelectElement).options].map((option) => option.value)).toEqual(['admin', 'member']);
    expect(screen.queryByRole('button', { name: 'Revoke the invitation to next@else.example' })).toBeNull();
  });

  it('asks before removing, then removes', async () => {
    const kit = await setUpAccountTest(serve('owner', (request) => (request.method === 'DELETE' ? [204] : [404])));
    renderAccount(<OrganizationPage />);
    await screen.findByRole('heading', { name: 'Acme Corp' });
    fireEvent.click(screen.getByRole('button', { name: 'Remove admin@acme.example' }));
    expect(await screen.findByText('Remove admin@acme.example?')).toBeDefined();
    expect(kit.requests.filter((request) => request.method === 'DELETE')).toHaveLength(0);
    fireEvent.click(screen.getByTestId('confirm-action'));
    await waitFor(() => expect(kit.requests.filter((request) => request.method === 'DELETE').map((request) => request.path)).toEqual(['/sso/me/organization/members/admin%40acme.example']));
    await waitFor(() => expect(kit.toasts).toContainEqual({ kind: 'success', message: 'admin@acme.example was removed' }));
  });

  it('never offers the sole owner Leave, and says why', async () => {
    const soleOwner = (request: Parameters<FakeServer>[0]): [number, unknown?] =>
      request.method === 'GET' && request.path === '/sso/me/organization'
        ? [200, { ...organization('owner'), members: organization('owner').members.filter((member) => member.role !== 'admin') }]
        : [404];
    await setUpAccountTest(soleOwner);
    renderAccount(<OrganizationPage />);
    await screen.findByRole('heading', { name: 'Acme Corp' });
    expect(screen.queryByTestId('leave-organization')).toBeNull();
    expect(screen.getByText('You are its only owner, so you cannot leave yet: make another member an owner first.')).toBeDefined();
    expect(screen.getByText('2 people in the organization.')).toBeDefined();
  });

  it('offers Leave to an owner who is not the only one', async () => {
    const twoOwners = (request: Parameters<FakeServer>[0]): [number, unknown?] =>
      request.method === 'GET' && request.path === '/sso/me/organization'
        ? [200, { ...organization('owner'), members: organization('owner').members.map((member) => ({ ...member, role: member.role === 'admin' ? 'owner' : member.role })) }]
        : [404];
    await setUpAccountTest(twoOwners);
    renderAccount(<OrganizationPage />);
    await screen.findByRole('heading', { name: 'Acme Corp' });
    expect(screen.getByTestId('leave-organization')).toBeDefined();
  });

  it('counts people by the plural rules of each language', async () => {
    const alone = (request: Parameters<FakeServer>[0]): [number, unknown?] =>
      request.method === 'GET' && request.path === '/sso/me/organization' ? [200, { ...organization('member'), members: organization('member').members.slice(2) }] : [404];
    await setUpAccountTest(alone);
    const { unmount } = renderAccount(<OrganizationPage />);
    expect(await screen.findByText('1 person in the organization.')).toBeDefined();
    unmount();
    await setUpAccountTest(alone, 'vi');
    renderAccount(<OrganizationPage />);
    expect(await screen.findByText('1 người trong tổ chức.')).toBeDefined();
  });

  it('shows a refusal inside the dialog, which stays open and usable', async () => {
    const refused = (request: Parameters<FakeServer>[0]): [number, unknown?] =>
      request.method === 'DELETE'
        ? [409, { code: 'organizations.last_owner', message: 'The organization needs at least one owner. Make another member an owner first' }]
        : request.path === '/sso/me/organization'
          ? [200, organization('owner')]
          : [404];
    const kit = await setUpAccountTest(refused);
    renderAccount(<OrganizationPage />);
    await screen.findByRole('heading', { name: 'Acme Corp' });
    fireEvent.click(screen.getByRole('button', { name: 'Remove admin@acme.example' }));
    const dialog = await screen.findByRole('dialog');
    fireEvent.click(within(dialog).getByTestId('confirm-action'));
    expect(await within(dialog).findByTestId('organization-dialog-error')).toBeDefined();
    expect(within(dialog).getByTestId('organization-dialog-error').textContent).toMatch(/at least one owner/);
    // No toast besides: the dialog says it. Trying again asks again; Cancel closes it.
    expect(kit.toasts).toEqual([]);
    fireEvent.click(within(dialog).getByTestId('confirm-action'));
    await waitFor(() => expect(kit.requests.filter((request) => request.method === 'DELETE')).toHaveLength(2));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('lets an account in no organization start one: the business trial form, under its own email', async () => {
    await setUpAccountTest(() => [404, { code: 'organizations.not_member', message: 'Your account is not in any enterprise' }]);
    renderAccount(<OrganizationPage />);
    expect(await screen.findByRole('heading', { name: 'Start an organization' })).toBeDefined();
    expect(screen.getByTestId('business-trial-form')).toBeDefined();
  });
});
