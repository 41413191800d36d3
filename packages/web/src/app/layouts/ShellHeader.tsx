import { Burger, Button, Group, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { BrandLogo } from '../../components/BrandLogo';
import { LanguagePicker } from '../../components/LanguagePicker';
import { toggleAside, useAppState } from '../../lib/app-state';
import { logout, useAuthState } from '../../lib/session';

/** Side-bar toggle and logo on the left; language, who is signed in and sign-out on the right. */
export function ShellHeader() {
  const { t } = useTranslation();
  const asideOpen = useAppState((state) => state.asideOpen);
  const { user } = useAuthState();

  return (
    <Group h="100%" px="md" justify="space-between" wrap="nowrap">
      <Group gap="sm" wrap="nowrap">
        <Burger
          opened={asideOpen}
          onClick={toggleAside}
          size="sm"
          aria-label={t('shell.toggleSidebar')}
          aria-expanded={asideOpen}
          data-testid="sidebar-toggle"
        />
        <BrandLogo variant="responsive" />
      </Group>
      <Group gap="sm" wrap="nowrap">
        <LanguagePicker />
        {user && (
          <Text size="sm" fw={500} visibleFrom="sm" truncate maw={200}>
            {user.full_name}
          </Text>
        )}
        <Button variant="subtle" size="xs" onClick={() => void logout()}>
          {t('shell.signOut')}
        </Button>
      </Group>
    </Group>
  );
}
