import '@mantine/core/styles/Alert.css';
import { Alert } from '@mantine/core';
import { errorText, type ApiError } from '../../lib/api';

/**
 * A console page's list or action that failed (the page keeps what it can show): `message`, or
 * the failed request's own error in the language shown now.
 */
export function LoadFailed({ when, message, error, testId }: { when: boolean; message?: string; error?: unknown; testId?: string }) {
  if (!when) return null;
  return (
    <Alert color="red" role="alert" data-testid={testId}>
      {message ?? errorText(error as ApiError)}
    </Alert>
  );
}
