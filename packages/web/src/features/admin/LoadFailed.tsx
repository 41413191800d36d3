import '@mantine/core/styles/Alert.css';
import { Alert } from '@mantine/core';

/** A console page's list that could not be loaded (the page keeps what it can show). */
export function LoadFailed({ when, message, testId }: { when: boolean; message: string; testId?: string }) {
  if (!when) return null;
  return (
    <Alert color="red" role="alert" data-testid={testId}>
      {message}
    </Alert>
  );
}
