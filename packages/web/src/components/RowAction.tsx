import '@mantine/core/styles/Button.css';
import { Button } from '@mantine/core';

export interface RowActionProps {
  /** The button's word ("Remove"). */
  label: string;
  /** What the row is ("Visa •••• 4242"): the button is named "Remove: Visa •••• 4242", so a list of buttons tells the rows apart. */
  of: string;
  onClick(): void;
  /** A red button for what cannot be undone (remove, revoke). */
  danger?: boolean;
  loading?: boolean;
  testId?: string;
}

/** One button of a list row's actions (DataTable's actions, or a cell of one): the same size, look and naming in every list. */
export function RowAction({ label, of, onClick, danger, loading, testId }: RowActionProps) {
  return (
    <Button variant="subtle" color={danger ? 'red' : undefined} size="compact-sm" onClick={onClick} loading={loading} aria-label={`${label}: ${of}`} data-testid={testId}>
      {label}
    </Button>
  );
}
