import '@mantine/core/styles/Alert.css';
import { Alert } from '@mantine/core';
import { errorText, ApiError } from '../lib/api';

/**
 * Why the last attempt failed, said where the person is looking (above a form's button, in a
 * dialog): a light red alert that screen readers announce. A refusal from the API is worded in
 * the language shown now; a string is shown as it is; nothing at all when there is no failure.
 */
export function FailureAlert({ failure, testId }: { failure: ApiError | string | null | undefined; testId?: string }) {
  if (!failure) return null;
  return (
    <Alert color="red" variant="light" role="alert" data-testid={testId}>
      {failure instanceof ApiError ? errorText(failure) : failure}
    </Alert>
  );
}
