import type { ReactNode } from 'react';
import { Stack } from '@mantine/core';
import { LoadFailed } from './LoadFailed';

/** A console detail page (a person, an organization) that could not be read: its way back, and why. */
export function DetailFailed({ back, error, testId }: { back: ReactNode; error: unknown; testId?: string }) {
  return (
    <Stack gap="md">
      {back}
      <LoadFailed when error={error} testId={testId} />
    </Stack>
  );
}
