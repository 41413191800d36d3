import '@mantine/core/styles/Badge.css';
import type { ReactNode } from 'react';
import { Badge, Stack, Text } from '@mantine/core';

export interface CellStyle {
  /** A row's name. */
  strong?: boolean;
  /** What is missing ('—', 'never') or secondary. */
  dimmed?: boolean;
  mono?: boolean;
  /** Kept on one line (a date or a time). */
  nowrap?: boolean;
  testId?: string;
}

/** A table cell's text, in the size every list uses. */
export function CellText({ strong, dimmed, mono, nowrap, testId, children }: CellStyle & { children: ReactNode }) {
  return (
    <Text size="sm" fw={strong ? 500 : undefined} c={dimmed ? 'dimmed' : undefined} ff={mono ? 'monospace' : undefined} style={nowrap ? { whiteSpace: 'nowrap' } : undefined} data-testid={testId}>
      {children}
    </Text>
  );
}

interface NameCellProps {
  name: ReactNode;
  /** The smaller dimmed line under the name (an email, an id); nothing when empty. */
  detail?: ReactNode;
  strong?: boolean;
  /** The name in monospace (an event's type). */
  mono?: boolean;
  /** The detail in monospace (an id, a key's prefix). */
  detailMono?: boolean;
  detailTestId?: string;
}

/** A name and, under it, a smaller dimmed line: two facts in one cell, so a phone's card or table stays narrow. */
export function NameCell({ name, detail, strong, mono, detailMono, detailTestId }: NameCellProps) {
  return (
    <Stack gap={0}>
      <CellText strong={strong} mono={mono}>
        {name}
      </CellText>
      {detail ? (
        <Text size="xs" c="dimmed" ff={detailMono ? 'monospace' : undefined} data-testid={detailTestId}>
          {detail}
        </Text>
      ) : null}
    </Stack>
  );
}

/** A state shown as a light badge. */
export function StateBadge({ color, size, testId, children }: { color: string; size?: 'xs' | 'sm'; testId?: string; children: ReactNode }) {
  return (
    <Badge color={color} variant="light" size={size} data-testid={testId}>
      {children}
    </Badge>
  );
}

/** The dimmed line a list shows instead of its table when it has no rows. */
export function EmptyText({ testId, children }: { testId?: string; children: ReactNode }) {
  return (
    <Text size="sm" c="dimmed" data-testid={testId}>
      {children}
    </Text>
  );
}
