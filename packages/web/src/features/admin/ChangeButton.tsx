import '@mantine/core/styles/Button.css';
import { Button } from '@mantine/core';
import type { PendingChange } from './ReasonDialog';

/**
 * A detail pane's action (rotate a secret, disable, delete): a plain button, red where the
 * change is destructive, that hands the page its change for the reason dialog to confirm. It
 * wears the dialog's confirm label, so what the operator clicks and confirms read the same.
 */
export function ChangeButton({ testId, red, change, onAsk }: { testId: string; red?: boolean; change: PendingChange; onAsk(change: PendingChange): void }) {
  return (
    <Button variant="default" color={red ? 'red' : undefined} data-testid={testId} onClick={() => onAsk(change)}>
      {change.confirmLabel}
    </Button>
  );
}
