import { Stack, Text, Title, type StackProps } from '@mantine/core';
import type { ReactNode } from 'react';

interface LinkRefusedProps extends StackProps {
  title: string;
  /** Why the link does not work: announced to screen readers. */
  reason: string;
  /** The way to a new link. */
  children: ReactNode;
}

/** A mailed link that no longer works (used, expired, unknown): what it was for, why not, and how to get a new one. */
export function LinkRefused({ title, reason, children, ...frame }: LinkRefusedProps) {
  return (
    <Stack gap="md" {...frame}>
      <Title order={1} fz="h2">{title}</Title>
      <Text c="dimmed" role="alert">{reason}</Text>
      {children}
    </Stack>
  );
}
