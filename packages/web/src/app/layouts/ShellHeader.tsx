import '@mantine/core/styles/Avatar.css';
import { Avatar, Burger, Button, Group, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { BrandLogo } from '../../components/BrandLogo';
import { LanguagePicker } from '../../components/LanguagePicker';
import { toggleAside, useAppState } from '../../lib/app-state';
import { logout, useAuthState } from '../../lib/session';
import { ShellNotifications } from './ShellNotifications';

/** Side-bar toggle and logo on the left; notifications, language, who is signed in and sign-out on the right. */
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
        <ShellNotifications />
        <LanguagePicker />
        {user && (
          <Group gap={8} wrap="nowrap" visibleFrom="sm">
            <Avatar src={user.avatar_url ?? null} name={user.full_name} color="initials" size={28} radius="xl" alt="" />
            <Text size="sm" fw={500} truncate maw={200} data-testid="header-user-name">
              {user.full_name}
            </Text>
          </Group>
        )}
        <Button variant="subtle" size="xs" onClick={() => void logout()}>
          {t('shell.signOut')}
        </Button>
      </Group>
    </Group>
  );
}
