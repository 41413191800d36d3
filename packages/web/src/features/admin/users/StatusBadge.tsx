import '@mantine/core/styles/Badge.css';
import { Badge } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { PersonStatus } from '@portal/contracts';

const colors: Record<PersonStatus, string> = { active: 'green', pending_activation: 'yellow', locked: 'red', pending_deletion: 'orange', deleted: 'gray' };

/** A person's status in words and colour (the words carry it: the colour is never alone). */
export function StatusBadge({ status }: { status: PersonStatus }) {
  const { t } = useTranslation();
  return (
    <Badge color={colors[status]} variant="light" data-testid="person-status" data-status={status}>
      {t(`admin.users.status.${status}`)}
    </Badge>
  );
}
