import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, within } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it } from 'vitest';
import { AppProviders } from '../AppProviders';
import { setUpAccountTest } from '../../test/account-kit';
import { testConfig } from '../../test/render';
import { mostSpecificMatch, ShellNavigation } from './ShellNavigation';

const administered = { items: [{ id: '00000000-0000-4000-8000-000000000001', name: 'Acme', role: 'owner' }] };

async function renderAt(path: string, administers: boolean) {
  await setUpAccountTest((request) => (request.path === '/organizations/administered' ? [200, administers ? administered : { items: [] }] : [404]));
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const router = createMemoryRouter([{ path: '*', element: <ShellNavigation onNavigate={() => undefined} /> }], { initialEntries: [path] });
  render(
    <AppProviders config={testConfig} env="test">
      <QueryClientProvider client={client}>
        <RouterProvider router={router} />
      </QueryClientProvider>
    </AppProviders>,
  );
}

/** The links the navigation highlights (Mantine marks the active one with data-active). */
const highlighted = () => [...document.querySelectorAll('nav :is(a, button)[data-active]')].map((element) => element.textContent);

describe('the side bar', () => {
  it('puts Audit log and Company SSO under Organization for its owners and admins, and highlights only the page shown', async () => {
    await renderAt('/organization/sso', true);
    const group = await screen.findByTestId('nav-group-organization');
    expect(await within(group.parentElement!).findByRole('link', { name: 'Company SSO' })).toBeDefined();
    expect(within(group.parentElement!).getByRole('link', { name: 'Audit log' })).toBeDefined();
    expect(within(group.parentElement!).getByRole('link', { name: 'Members' })).toBeDefined();
    expect(highlighted()).toEqual(['Company SSO']);
  });

  it('highlights one page of a section: the overview is not lit with its sub-page', async () => {
    await renderAt('/security/password', false);
    await screen.findByRole('link', { name: 'Password' });
    expect(highlighted()).toEqual(['Password']);
  });

  it('shows everyone the Organization entry (where one is started), without the admin pages', async () => {
    await renderAt('/organization', false);
    expect(await screen.findByRole('link', { name: 'Organization' })).toBeDefined();
    expect(screen.queryByRole('link', { name: 'Audit log' })).toBeNull();
    expect(screen.queryByRole('link', { name: 'Company SSO' })).toBeNull();
    expect(highlighted()).toEqual(['Organization']);
  });

  it('picks the most specific page that covers the path; home only as itself', () => {
    const links = ['/', '/organization', '/organization/sso', '/organization/audit-log', '/security', '/security/password'];
    expect(mostSpecificMatch(links, '/organization/sso/link')).toBe('/organization/sso');
    expect(mostSpecificMatch(links, '/organization')).toBe('/organization');
    expect(mostSpecificMatch(links, '/organizations')).toBeUndefined();
    expect(mostSpecificMatch(links, '/')).toBe('/');
    expect(mostSpecificMatch(links, '/nowhere')).toBeUndefined();
  });
});
