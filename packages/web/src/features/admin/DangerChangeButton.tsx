import '@mantine/core/styles/Button.css';
import { Button } from '@mantine/core';
import type { PendingChange } from './ReasonDialog';

/**
 * A list row's destructive action (revoke a key or a role, drop a signing key): a small red
 * button that hands the page its change, marked dangerous, for the reason dialog to confirm.
 */
export function DangerChangeButton({
  label,
  ariaLabel,
  testId,
  dataRole,
  change,
  onAsk,
}: {
  label: string;
  ariaLabel: string;
  testId: string;
  /** data-role of the button, where a row has one per role. */
  dataRole?: string;
  change(): Omit<PendingChange, 'danger'>;
  onAsk(change: PendingChange): void;
}) {
  return (
    <Button size="xs" variant="light" color="red" data-testid={testId} data-role={dataRole} aria-label={ariaLabel} onClick={() => onAsk({ ...change(), danger: true })}>
      {label}
    </Button>
  );
}
