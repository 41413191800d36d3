import { cleanup, render, screen } from '@testing-library/react';
import { MantineProvider } from '@mantine/core';
import { afterEach, describe, expect, it } from 'vitest';
import { themeFor } from '../../app/theme';
import { ListResults } from './ListResults';

const ok = { isError: false, error: null };
const list = (query: { isError: boolean; error: unknown }, rows: readonly string[] | undefined, failed?: string) => (
  <MantineProvider theme={themeFor('platform')}>
    <ListResults query={query} rows={rows} failed={failed} empty="Nothing found" emptyTestId="empty">
      {(found) => <ul data-testid="table">{found.map((row) => <li key={row}>{row}</li>)}</ul>}
    </ListResults>
  </MantineProvider>
);

describe('ListResults', () => {
  afterEach(cleanup);

  it('shows nothing before the list has answered', () => {
    render(list(ok, undefined));
    expect(screen.queryByTestId('empty')).toBeNull();
    expect(screen.queryByTestId('table')).toBeNull();
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('shows the empty text for no rows, and the table for some', () => {
    const view = render(list(ok, []));
    expect(screen.getByTestId('empty').textContent).toBe('Nothing found');
    expect(screen.queryByTestId('table')).toBeNull();
    view.rerender(list(ok, ['a', 'b']));
    expect(screen.queryByTestId('empty')).toBeNull();
    expect(screen.getByTestId('table').textContent).toBe('ab');
  });

  it('shows a failure with its message, above the rows it still has', () => {
    render(list({ isError: true, error: null }, ['a'], 'The list failed'));
    expect(screen.getByRole('alert').textContent).toBe('The list failed');
    expect(screen.getByTestId('table').textContent).toBe('a');
  });
});
