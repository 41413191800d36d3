import type { ReactNode } from 'react';
import { Stack, Text } from '@mantine/core';
import { Spinner } from './Spinner';

/** A result page while the server answers (a link being checked, an account activated): a spinner and what is happening, as a status. */
export function WaitingView({ text, indicator = <Spinner /> }: { text: string; indicator?: ReactNode }) {
  return (
    <Stack align="center" gap="md" py="xl" role="status">
      {indicator}
      <Text>{text}</Text>
    </Stack>
  );
}
