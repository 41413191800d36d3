import '@mantine/core/styles/Paper.css';
import type { ReactNode } from 'react';
import { Paper, Stack, Text, Title } from '@mantine/core';

interface SectionProps {
  title: ReactNode;
  description?: ReactNode;
  children?: ReactNode;
}

/** One titled part of a settings page; what it holds is filled in by each feature. */
export function Section({ title, description, children }: SectionProps) {
  return (
    <Paper component="section" withBorder p="lg">
      <Stack gap="xs">
        <Title order={2} fz="h4">
          {title}
        </Title>
        {description && (
          <Text size="sm" c="dimmed">
            {description}
          </Text>
        )}
        {children}
      </Stack>
    </Paper>
  );
}
