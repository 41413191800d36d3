import { useId, type ReactNode } from 'react';
import { Stack, Text } from '@mantine/core';

/**
 * A control under a visible label that names it for a screen reader (aria-labelledby with the
 * id it is given), for what Mantine gives no label of its own: a segmented choice, a shown key.
 */
export function LabelAbove({ label, children }: { label: string; children(labelId: string): ReactNode }) {
  const labelId = useId();
  return (
    <Stack gap={4}>
      <Text size="sm" fw={500} id={labelId}>
        {label}
      </Text>
      {children(labelId)}
    </Stack>
  );
}
