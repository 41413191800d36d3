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

function renderTable(actions?: boolean) {
  return render(
    <MantineProvider>
      <DataTable
        rows={fruits}
        rowKey={(fruit) => fruit.id}
        minWidth={400}
        testId="fruit-table"
        rowTestId="fruit-row"
        rowProps={(fruit) => ({ 'data-ripe': fruit.ripe ? 'yes' : undefined })}
        columns={[
          { header: 'Name', cell: (fruit) => fruit.name },
          { header: 'Ripe', cell: (fruit) => (fruit.ripe ? 'ripe' : 'green') },
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
    expect(within(table).getAllByRole('columnheader').map((th) => th.textContent)).toEqual(['Name', 'Ripe']);
    const rows = screen.getAllByTestId('fruit-row');
    expect(rows.map((row) => within(row).getAllByRole('cell').map((td) => td.textContent))).toEqual([
      ['Apple', 'ripe'],
      ['Banana', 'green'],
    ]);
    expect(rows[0]!.getAttribute('data-ripe')).toBe('yes');
    expect(rows[1]!.hasAttribute('data-ripe')).toBe(false);
  });

  it('puts row actions in a last column whose heading is read by screen readers only', () => {
    renderTable(true);
    const headers = within(screen.getByTestId('fruit-table')).getAllByRole('columnheader');
    expect(headers).toHaveLength(3);
    expect(headers[2]!.textContent).toBe('Actions');
    expect(within(screen.getAllByTestId('fruit-row')[1]!).getByRole('button', { name: 'Eat Banana' })).toBeTruthy();
  });
});
