import '@mantine/core/styles/Alert.css';
import '@mantine/core/styles/Button.css';
import { Alert, Button, Stack } from '@mantine/core';
import { Link } from 'react-router';

interface DoneWithLinkProps {
  /** What was done ("You joined Acme"). */
  message: string;
  testId: string;
  /** Where the person goes next, and the button's words. */
  to: string;
  label: string;
}

/** A result screen's success: the green message, then the button to the place it opened. */
export function DoneWithLink({ message, testId, to, label }: DoneWithLinkProps) {
  return (
    <Stack gap="sm">
      <Alert color="green" data-testid={testId}>
        {message}
      </Alert>
      <Button component={Link} to={to}>
        {label}
      </Button>
    </Stack>
  );
}
