import { cleanup, render, screen } from '@testing-library/react';
import { MantineProvider } from '@mantine/core';
import { afterEach, describe, expect, it } from 'vitest';
import { themeFor } from '../../app/theme';
import { initI18n } from '../../lib/i18n';
import { changeDialog, ReasonDialog, type PendingChange } from './ReasonDialog';

// The stand-in for document.fonts goes with the dialog that listens to it: the next file's page has none.
afterEach(() => {
  cleanup();
  Reflect.deleteProperty(document, 'fonts');
});

describe('ReasonDialog', () => {
  it('keeps its texts while it fades out, so its buttons keep their names', () => {
    initI18n('en');
    // The reason's autosizing textarea listens for fonts loading, which jsdom does not have.
    if (!('fonts' in document)) Object.defineProperty(document, 'fonts', { value: new EventTarget(), configurable: true });
    const change: PendingChange = { title: 'Take support away', body: 'Hà loses the console.', confirmLabel: 'Take away', run: async () => undefined };
    // Mantine's own transitions (not the test env's, which has none): the dialog stays mounted while it fades.
    const dialog = (pending: PendingChange | null) => (
      <MantineProvider theme={themeFor('platform')}>
        <ReasonDialog {...changeDialog(pending)} onClose={() => undefined} />
      </MantineProvider>
    );
    const view = render(dialog(change));
    expect(screen.getByTestId('action-confirm').textContent).toBe('Take away');
    view.rerender(dialog(null));
    const fading = screen.queryByTestId('action-confirm');
    expect(fading).not.toBeNull();
    expect(fading?.textContent).toBe('Take away');
    expect(screen.getByText('Take support away')).toBeTruthy();
  });
});
