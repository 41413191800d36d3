import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { applyLanguage } from '../../lib/language';
import { CreateKeyDialog, type CreateKeyRequest } from './CreateKeyDialog';
import { renderAccount, setUpAccountTest } from '../../test/account-kit';

afterEach(async () => {
  cleanup();
  await applyLanguage('en');
});

const SECRET = 'pk_live_3xAmPl3S3cr3tK3yV4lu3';

function Harness({ opened, onClose, onCreate }: { opened: boolean; onClose(): void; onCreate(request: CreateKeyRequest): Promise<{ name: string; key: string }> }) {
  return <CreateKeyDialog opened={opened} onClose={onClose} onCreate={onCreate} />;
}

/** A page with a button that opens the dialog, as the API keys page has. */
function Reopenable({ onCreate }: { onCreate(request: CreateKeyRequest): Promise<{ name: string; key: string }> }) {
  const [opened, setOpened] = useState(false);
  return (
    <>
      <button type="button" onClick={() => setOpened(true)}>
        open
      </button>
      <CreateKeyDialog opened={opened} onClose={() => setOpened(false)} onCreate={onCreate} />
    </>
  );
}

describe('CreateKeyDialog', () => {
  it('asks for a name and at least one scope before creating', async () => {
    await setUpAccountTest(() => [404]);
    const onCreate = vi.fn();
    renderAccount(<Harness opened onClose={() => undefined} onCreate={onCreate} />);

    fireEvent.click(screen.getByRole('checkbox', { name: /Read your profile/ }));
    fireEvent.click(screen.getByRole('button', { name: 'Create key' }));
    expect(await screen.findByText('This field may not be blank.')).toBeTruthy();
    expect(screen.getByText('Choose at least one scope')).toBeTruthy();
    expect(onCreate).not.toHaveBeenCalled();
  });

  it('shows the new key once, with a copy button and a warning, instead of the form', async () => {
    await setUpAccountTest(() => [404]);
    const onCreate = vi.fn(async (request: CreateKeyRequest) => ({ name: request.name, key: SECRET }));
    const onClose = vi.fn();
    renderAccount(<Harness opened onClose={onClose} onCreate={onCreate} />);

    fireEvent.change(screen.getByLabelText(/^Name/), { target: { value: 'CI deploy' } });
    fireEvent.click(screen.getByRole('checkbox', { name: /Read your notifications/ }));
    fireEvent.change(screen.getByLabelText(/Expires after/), { target: { value: '30' } });
    fireEvent.click(screen.getByRole('button', { name: 'Create key' }));

    expect((await screen.findByTestId('created-key-value')).textContent).toBe(SECRET);
    expect(onCreate).toHaveBeenCalledWith({ name: 'CI deploy', scopes: ['me:read', 'notifications:read'], expires_in_days: 30 });
    expect(screen.getByRole('alert').textContent).toContain('This is the only time the key is shown');
    expect(screen.getByTestId('copy-key').textContent).toBe('Copy');
    // The form is gone: nothing to create a second time from the same dialog.
    expect(screen.queryByRole('button', { name: 'Create key' })).toBeNull();

    fireEvent.click(screen.getByRole('button', { name: 'I have copied the key' }));
    expect(onClose).toHaveBeenCalled();
  });

  it('forgets the key when the same dialog is closed and reopened', async () => {
    await setUpAccountTest(() => [404]);
    const onCreate = vi.fn(async (request: CreateKeyRequest) => ({ name: request.name, key: SECRET }));
    renderAccount(<Reopenable onCreate={onCreate} />);
    fireEvent.click(screen.getByRole('button', { name: 'open' }));
    fireEvent.change(await screen.findByLabelText(/^Name/), { target: { value: 'Once' } });
    fireEvent.click(screen.getByRole('button', { name: 'Create key' }));
    expect(await screen.findByText(SECRET)).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'I have copied the key' }));
    await waitFor(() => expect(screen.queryByText(SECRET)).toBeNull());
    fireEvent.click(screen.getByRole('button', { name: 'open' }));
    expect(await screen.findByRole('button', { name: 'Create key' })).toBeTruthy();
    expect(screen.queryByText(SECRET)).toBeNull();
    expect((screen.getByLabelText(/^Name/) as HTMLInputElement).value).toBe('');
  });

  it('speaks Vietnamese', async () => {
    await setUpAccountTest(() => [404], 'vi');
    renderAccount(<Harness opened onClose={() => undefined} onCreate={vi.fn()} />);
    expect(await screen.findByText('Tạo khóa API')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Tạo khóa' }));
    expect(await screen.findByText('Trường này không được để trống.')).toBeTruthy();
  });
});
