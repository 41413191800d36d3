import type { ReactNode } from 'react';
import { Stack, Text } from '@mantine/core';

/**
 * Two facts in one cell: on a phone a table of three columns fits without scrolling sideways
 * (a scrolling region with no control in it cannot be reached by keyboard).
 */
export function TwoLines({ first, second }: { first: ReactNode; second: ReactNode }) {
  return (
    <Stack gap={2}>
      <span>{first}</span>
      <Text size="xs" c="dimmed">
        {second}
      </Text>
    </Stack>
  );
}
