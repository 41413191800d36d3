import type { ReactNode } from 'react';
import { Stack, Text, Title } from '@mantine/core';

interface PageHeaderProps {
  title: ReactNode;
  description?: ReactNode;
}

/** The title and one-line purpose every page starts with. */
export function PageHeader({ title, description }: PageHeaderProps) {
  return (
    <Stack gap={4} mb="lg">
      <Title order={1} fz="h2">
        {title}
      </Title>
      {description && <Text c="dimmed">{description}</Text>}
    </Stack>
  );
}
