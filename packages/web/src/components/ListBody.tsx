import type { ReactNode } from 'react';
import { EmptyText } from './cells';
import { LoadingIndicator } from './LoadingIndicator';

interface ListBodyProps<Row> {
  /** The list's rows; undefined until they are fetched. */
  rows: readonly Row[] | undefined;
  pending: boolean;
  /** What the list says when it has no rows. */
  empty: ReactNode;
  emptyTestId?: string;
  /** The table of the rows, when there are some. */
  children(rows: readonly Row[]): ReactNode;
}

/** A fetched list: a loader while it comes, its empty text when it has no rows, else its table. */
export function ListBody<Row>({ rows, pending, empty, emptyTestId, children }: ListBodyProps<Row>) {
  if (pending) return <LoadingIndicator />;
  if (!rows?.length) return <EmptyText testId={emptyTestId}>{empty}</EmptyText>;
  return children(rows);
}
