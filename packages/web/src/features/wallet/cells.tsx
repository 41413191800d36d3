import { Anchor, Badge, Text } from '@mantine/core';
import { formatDateTime, formatMoney, type Currency, type Language } from '@portal/contracts';

/** Where a BSC transaction is shown to people. */
export const BSCSCAN_TX = 'https://bscscan.com/tx/';

/** A long hex string (address, transaction hash) cut to its ends; the whole one stays in the title. */
export const short = (hex: string) => `${hex.slice(0, 10)}…${hex.slice(-8)}`;

/** The cells the wallet's lists share: a time, an amount, a status badge, a transaction link. */
export const TimeCell = ({ at, language }: { at: string; language: Language }) => <Text size="sm">{formatDateTime(at, language)}</Text>;

export const AmountCell = ({ minor, currency, language }: { minor: string; currency: Currency; language: Language }) => (
  <Text size="sm" fw={500}>
    {formatMoney({ minor }, currency, language)}
  </Text>
);

export const StatusBadge = ({ color, testId, children }: { color: string; testId: string; children: string }) => (
  <Badge color={color} variant="light" data-testid={testId}>
    {children}
  </Badge>
);

export const TransactionLink = ({ hash }: { hash: string | null }) =>
  hash ? (
    <Anchor href={`${BSCSCAN_TX}${hash}`} target="_blank" rel="noreferrer" size="sm" ff="monospace">
      {short(hash)}
    </Anchor>
  ) : (
    <Text size="sm">—</Text>
  );
