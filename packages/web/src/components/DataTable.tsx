import '@mantine/core/styles/Table.css';
import '@mantine/core/styles/VisuallyHidden.css';
import type { ReactNode } from 'react';
import { Group, Table, VisuallyHidden } from '@mantine/core';
import { CellText, type CellStyle } from './cells';
import classes from './DataTable.module.css';

interface ColumnHeading {
  /** The column's heading. */
  header: ReactNode;
  /**
   * The value's name on a phone card (narrow="cards"); the header when that is text. '' shows
   * the value alone (a row's name, which needs none).
   */
  label?: string;
}

/**
 * One column: `cell` draws a row's cell, or `text` gives the value of a plain text cell (in the
 * lists' text size, `strong` for a row's name, `mono` for numbers and addresses, `dimmed`).
 */
export type DataColumn<Row> = ColumnHeading & ({ cell(row: Row): ReactNode; text?: never } | ({ text(row: Row): ReactNode; cell?: never } & CellStyle));

export interface DataTableProps<Row> {
  rows: readonly Row[];
  columns: readonly DataColumn<NoInfer<Row>>[];
  rowKey(row: NoInfer<Row>): string;
  /** The buttons at the end of a row (right-aligned), under a heading read by screen readers only. */
  actions?: { label: string; cell(row: NoInfer<Row>): ReactNode };
  /** Below this width the table scrolls sideways instead of squeezing its columns (from `sm` up, with narrow="cards"). */
  minWidth: number;
  /**
   * Below Mantine's `sm` breakpoint (a phone): 'cards' (the default) shows each row as a card
   * of "label: value" lines with its actions full width at the bottom, so nothing is off screen
   * or cut; 'scroll' keeps the table and scrolls it sideways.
   */
  narrow?: 'scroll' | 'cards';
  testId: string;
  /** The table's accessible name, where the section heading above does not name it. */
  label?: string;
  /** data-testid of each row. */
  rowTestId: string;
  /** More attributes of a row (data-current, a status). */
  rowProps?(row: NoInfer<Row>): Record<string, string | undefined>;
  highlightOnHover?: boolean;
  /** The rows are being fetched again (aria-busy: a screen reader waits for the new ones). */
  busy?: boolean;
}

/**
 * The list screens' table (passkeys, devices, API keys, members, orders, ...): one heading
 * row, one row per item, and an optional last column of row actions. It is what each of
 * those screens repeated by hand.
 */
export function DataTable<Row>({ rows, columns, rowKey, actions, minWidth, narrow = 'cards', testId, label, rowTestId, rowProps, highlightOnHover, busy }: DataTableProps<Row>) {
  const labels = columns.map((column) => column.label ?? (typeof column.header === 'string' ? column.header : ''));
  return (
    // The region scrolls sideways on a narrow screen: focusable, so a keyboard can scroll it too.
    <Table.ScrollContainer
      minWidth={minWidth}
      scrollAreaProps={{ viewportProps: { tabIndex: 0 } }}
      className={narrow === 'cards' ? classes.cards : undefined}
      classNames={{ scrollContainerInner: classes.inner }}
      data-narrow={narrow}
    >
      <Table verticalSpacing="sm" highlightOnHover={highlightOnHover} data-testid={testId} aria-label={label} aria-busy={busy} className={classes.table}>
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
            <Table.Tr key={rowKey(row)} data-testid={rowTestId} {...rowProps?.(row)} className={classes.row}>
              {columns.map((column, index) => (
                // data-label names the value on a phone card (shown by CSS, outside the cell's text).
                <Table.Td key={index} className={classes.cell} data-label={labels[index] || undefined}>
                  {cellOf(column, row)}
                </Table.Td>
              ))}
              {actions && (
                <Table.Td className={`${classes.cell} ${classes.actions}`}>
                  <Group gap="xs" justify="flex-end" wrap="nowrap" className={classes.actionGroup}>
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

function cellOf<Row>(column: DataColumn<Row>, row: Row): ReactNode {
  if (column.cell) return column.cell(row);
  const { strong, dimmed, mono, nowrap, testId } = column;
  return (
    <CellText strong={strong} dimmed={dimmed} mono={mono} nowrap={nowrap} testId={testId}>
      {column.text(row)}
    </CellText>
  );
}
