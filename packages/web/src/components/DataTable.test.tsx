import { render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { MantineProvider } from '@mantine/core';
import { DataTable } from './DataTable';
import '../test/render';

interface Fruit {
  id: string;
  name: string;
  ripe: boolean;
}

const fruits: Fruit[] = [
  { id: 'a', name: 'Apple', ripe: true },
  { id: 'b', name: 'Banana', ripe: false },
];

function renderTable(actions?: boolean, narrow?: 'scroll' | 'cards') {
  return render(
    <MantineProvider>
      <DataTable
        narrow={narrow}
        rows={fruits}
        rowKey={(fruit) => fruit.id}
        minWidth={400}
        testId="fruit-table"
        rowTestId="fruit-row"
        rowProps={(fruit) => ({ 'data-ripe': fruit.ripe ? 'yes' : undefined })}
        columns={[
          { header: 'Name', cell: (fruit) => fruit.name },
          { header: 'Ripe', cell: (fruit) => (fruit.ripe ? 'ripe' : 'green') },
          { header: <abbr title="Colour">Col.</abbr>, label: 'Colour', cell: (fruit) => (fruit.name === 'Apple' ? 'red' : 'yellow') },
        ]}
        actions={actions ? { label: 'Actions', cell: (fruit) => <button type="button">Eat {fruit.name}</button> } : undefined}
      />
    </MantineProvider>,
  );
}

describe('DataTable', () => {
  it('renders a heading per column and a row per item, cells in column order, with each row’s attributes', () => {
    renderTable();
    const table = screen.getByTestId('fruit-table');
    expect(within(table).getAllByRole('columnheader').map((th) => th.textContent)).toEqual(['Name', 'Ripe', 'Col.']);
    const rows = screen.getAllByTestId('fruit-row');
    expect(rows.map((row) => within(row).getAllByRole('cell').map((td) => td.textContent))).toEqual([
      ['Apple', 'ripe', 'red'],
      ['Banana', 'green', 'yellow'],
    ]);
    expect(rows[0]!.getAttribute('data-ripe')).toBe('yes');
    expect(rows[1]!.hasAttribute('data-ripe')).toBe(false);
  });

  it('puts row actions in a last column whose heading is read by screen readers only', () => {
    renderTable(true);
    const headers = within(screen.getByTestId('fruit-table')).getAllByRole('columnheader');
    expect(headers).toHaveLength(4);
    expect(headers[3]!.textContent).toBe('Actions');
    expect(within(screen.getAllByTestId('fruit-row')[1]!).getByRole('button', { name: 'Eat Banana' })).toBeTruthy();
  });

  it('shows cards on a phone unless asked to scroll sideways', () => {
    const { unmount } = renderTable(true);
    expect(screen.getByTestId('fruit-table').closest('[data-narrow]')?.getAttribute('data-narrow')).toBe('cards');
    unmount();
    renderTable(true, 'scroll');
    expect(screen.getByTestId('fruit-table').closest('[data-narrow]')?.getAttribute('data-narrow')).toBe('scroll');
  });

  it('in cards mode names each value on the card without changing the cell’s text, and keeps the actions and headings', () => {
    renderTable(true, 'cards');
    const table = screen.getByTestId('fruit-table');
    expect(table.closest('[data-narrow]')?.getAttribute('data-narrow')).toBe('cards');
    // The headings stay for screen readers; the card's labels come from data-label (a text header,
    // or the column's own label where the header is not text).
    expect(within(table).getAllByRole('columnheader')).toHaveLength(4);
    const cells = within(screen.getAllByTestId('fruit-row')[0]!).getAllByRole('cell');
    expect(cells.map((td) => td.getAttribute('data-label'))).toEqual(['Name', 'Ripe', 'Colour', null]);
    expect(cells.map((td) => td.textContent)).toEqual(['Apple', 'ripe', 'red', 'Eat Apple']);
    expect(within(cells[3]!).getByRole('button', { name: 'Eat Apple' })).toBeTruthy();
  });

  it('in cards mode shows a value alone when its column’s label is empty', () => {
    render(
      <MantineProvider>
        <DataTable
          narrow="cards"
          rows={fruits}
          rowKey={(fruit) => fruit.id}
          minWidth={400}
          testId="fruit-table"
          rowTestId="fruit-row"
          columns={[{ header: 'Name', label: '', cell: (fruit) => fruit.name }]}
        />
      </MantineProvider>,
    );
    expect(within(screen.getAllByTestId('fruit-row')[1]!).getByRole('cell').hasAttribute('data-label')).toBe(false);
  });
});
