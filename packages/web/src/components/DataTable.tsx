import '@mantine/core/styles/Table.css';
import '@mantine/core/styles/VisuallyHidden.css';
import type { ReactNode } from 'react';
import { Group, Table, VisuallyHidden } from '@mantine/core';

export interface DataColumn<Row> {
  /** The column's heading. */
  header: ReactNode;
  /** The cell of one row. */
  cell(row: Row): ReactNode;
}

export interface DataTableProps<Row> {
  rows: readonly Row[];
  columns: readonly DataColumn<Row>[];
  rowKey(row: Row): string;
  /** The buttons at the end of a row (right-aligned), under a heading read by screen readers only. */
  actions?: { label: string; cell(row: Row): ReactNode };
  /** Below this width the table scrolls sideways instead of squeezing its columns. */
  minWidth: number;
  testId: string;
  /** The table's accessible name, where the section heading above does not name it. */
  label?: string;
  /** data-testid of each row. */
  rowTestId: string;
  /** More attributes of a row (data-current, a status). */
  rowProps?(row: Row): Record<string, string | undefined>;
  highlightOnHover?: boolean;
}

/**
 * The list screens' table (passkeys, devices, API keys, members, orders, ...): one heading
 * row, one row per item, and an optional last column of row actions. It is what each of
 * those screens repeated by hand.
 */
export function DataTable<Row>({ rows, columns, rowKey, actions, minWidth, testId, label, rowTestId, rowProps, highlightOnHover }: DataTableProps<Row>) {
  return (
    // The region scrolls sideways on a narrow screen: focusable, so a keyboard can scroll it too.
    <Table.ScrollContainer minWidth={minWidth} scrollAreaProps={{ viewportProps: { tabIndex: 0 } }}>
      <Table verticalSpacing="sm" highlightOnHover={highlightOnHover} data-testid={testId} aria-label={label}>
        <Table.Thead>
          <Table.Tr>
            {columns.map((column, index) => (
              <Table.Th key={index}>{column.header}</Table.Th>
            ))}
            {actions && (
              <Table.Th>
                <VisuallyHidden>{actions.label}</VisuallyHidden>
              </Table.Th>
            )}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((row) => (
            <Table.Tr key={rowKey(row)} data-testid={rowTestId} {...rowProps?.(row)}>
              {columns.map((column, index) => (
                <Table.Td key={index}>{column.cell(row)}</Table.Td>
              ))}
              {actions && (
                <Table.Td>
                  <Group gap="xs" justify="flex-end" wrap="nowrap">
                    {actions.cell(row)}
                  </Group>
                </Table.Td>
              )}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
