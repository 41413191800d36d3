import type { ReactNode } from 'react';
import { Text } from '@mantine/core';
import { LoadFailed } from './LoadFailed';

interface ListResultsProps<Row> {
  /** The list's request: its failure is shown above the rest. */
  query: { isError: boolean; error: unknown };
  /** The rows it answered; undefined until it has answered. */
  rows: readonly Row[] | undefined;
  /** What a failure says; the request's own error without it. */
  failed?: string;
  failedTestId?: string;
  /** What the list says when it answered no rows. */
  empty: ReactNode;
  emptyTestId?: string;
  /** The rows' table, when there are some. */
  children(rows: readonly Row[]): ReactNode;
}

/** A console list's answer: its failure, its empty text once it answered no rows, else its table. */
export function ListResults<Row>({ query, rows, failed, failedTestId, empty, emptyTestId, children }: ListResultsProps<Row>) {
  return (
    <>
      <LoadFailed when={query.isError} message={failed} error={query.error} testId={failedTestId} />
      {rows && rows.length === 0 && <Text data-testid={emptyTestId}>{empty}</Text>}
      {rows && rows.length > 0 && children(rows)}
    </>
  );
}
