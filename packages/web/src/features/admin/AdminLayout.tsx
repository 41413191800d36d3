import '@mantine/core/styles/AppShell.css';
import '@mantine/core/styles/Alert.css';
import '@mantine/core/styles/Burger.css';
import '@mantine/core/styles/Button.css';
import '@mantine/core/styles/NavLink.css';
import '@mantine/core/styles/ScrollArea.css';
import { useState } from 'react';
import { Alert, Anchor, AppShell, Burger, Button, Group, ScrollArea, Stack, Text } from '@mantine/core';
import { QueryClientProvider } from '@tanstack/react-query';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { paths, type AdminMe } from '@portal/contracts';
import { BrandLogo } from '../../components/BrandLogo';
import { ErrorView } from '../../components/ErrorView';
import { FullPageLoader } from '../../components/FullPageLoader';
import { LanguagePicker } from '../../components/LanguagePicker';
import { PublicFrame } from '../../components/PublicFrame';
import { ReauthDialog } from '../../components/dialogs/ReauthDialog';
import { ShellMain } from '../../components/ShellMain';
import { ApiError } from '../../lib/api';
import { queryClient } from '../../lib/query-client';
import { useBrand } from '../../lib/runtime-context';
import { logout } from '../../lib/session';
import { AdminNav } from './AdminNav';
import { AdminRoutes } from './AdminRoutes';
import { useAdminMe } from './api';
import { OperatorContext } from './operator-context';
import { TwoFactorRequired } from './TwoFactorRequired';

/**
 * /admin: the operators' console, on the platform brand only. It asks the server who the
 * operator is before it shows anything: a person who is not an operator sees the ordinary
 * not-found page (the console does not announce itself), an operator without two-step
 * verification is sent to turn it on, and an old sign-in is asked to prove it is them again
 * (the re-authentication dialog, mounted first so it is there for that first call).
 */
export function AdminLayout() {
  return (
    <QueryClientProvider client={queryClient}>
      <ReauthDialog />
      <AdminGate />
    </QueryClientProvider>
  );
}

function AdminGate() {
  const { t } = useTranslation();
  const platform = useBrand().id === 'platform';
  const me = useAdminMe(platform);

  if (!platform) return <NotFound />;
  if (me.data) return <AdminShell me={me.data} />;
  if (!me.error) return <FullPageLoader />;
  const code = me.error instanceof ApiError ? me.error.code : null;
  if (code === 'admin.two_factor_required') {
    return (
      <PublicFrame>
        <TwoFactorRequired />
      </PublicFrame>
    );
  }
  if (me.error instanceof ApiError && me.error.status === 403 && code !== 'auth.reauth_required') return <NotFound />;
  return (
    <PublicFrame>
      <Stack gap="md" py="xl">
        <Alert color={code === 'auth.reauth_required' ? 'blue' : 'red'} role="alert" data-testid="admin-load-failed">
          {t(code === 'auth.reauth_required' ? 'admin.reauthNeeded' : 'admin.loadFailed')}
        </Alert>
        <Button w="fit-content" onClick={() => void me.refetch()} loading={me.isFetching}>
          {t('admin.retry')}
        </Button>
      </Stack>
    </PublicFrame>
  );
}

function NotFound() {
  const { t } = useTranslation();
  return (
    <PublicFrame>
      <ErrorView status={404} message={t('errors.page_not_found')} />
    </PublicFrame>
  );
}

/** Header (menu button on a phone, logo, title, language, sign out), the menu, the page. */
function AdminShell({ me }: { me: AdminMe }) {
  const { t } = useTranslation();
  const [menuOpen, setMenuOpen] = useState(false);
  const roles = me.roles.map((role) => t(`admin.roles.${role}`)).join(', ');

  return (
    <OperatorContext value={me}>
      <AppShell header={{ height: 60 }} navbar={{ width: 240, breakpoint: 'sm', collapsed: { mobile: !menuOpen } }} padding="lg">
        <AppShell.Header>
          <Group h="100%" px="md" justify="space-between" wrap="nowrap">
            <Group gap="sm" wrap="nowrap" miw={0}>
              <Burger
                opened={menuOpen}
                onClick={() => setMenuOpen((open) => !open)}
                hiddenFrom="sm"
                size="sm"
                aria-label={t('admin.toggleNavigation')}
                aria-expanded={menuOpen}
                data-testid="admin-menu-toggle"
              />
              <BrandLogo variant="responsive" />
              <Text fw={600} truncate visibleFrom="xs">
                {t('admin.title')}
              </Text>
            </Group>
            <Group gap="sm" wrap="nowrap">
              <LanguagePicker />
              <Button variant="subtle" size="xs" onClick={() => void logout()}>
                {t('shell.signOut')}
              </Button>
            </Group>
          </Group>
        </AppShell.Header>

        <AppShell.Navbar aria-label={t('admin.mainNavigation')}>
          <AppShell.Section grow component={ScrollArea} p="sm">
            <AdminNav roles={me.roles} onNavigate={() => setMenuOpen(false)} />
          </AppShell.Section>
          <AppShell.Section p="sm">
            <Stack gap={4}>
              <Text size="sm" truncate data-testid="admin-operator">
                {t('admin.signedInAs', { email: me.email })}
              </Text>
              <Text size="sm" c="dimmed">
                {t('admin.roles.label', { roles })}
              </Text>
              <Anchor component={Link} to={paths.home} size="sm">
                {t('admin.backToAccount')}
              </Anchor>
            </Stack>
          </AppShell.Section>
        </AppShell.Navbar>

        <ShellMain>
          <AdminRoutes />
        </ShellMain>
      </AppShell>
    </OperatorContext>
  );
}
