import '@mantine/core/styles/AppShell.css';
import '@mantine/core/styles/Button.css';
import '@mantine/core/styles/Burger.css';
import '@mantine/core/styles/NavLink.css';
import '@mantine/core/styles/ScrollArea.css';
import { AppShell, ScrollArea } from '@mantine/core';
import { QueryClientProvider } from '@tanstack/react-query';
import { Outlet } from 'react-router';
import { useTranslation } from 'react-i18next';
import { ReauthDialog } from '../../components/dialogs/ReauthDialog';
import { ShellMain } from '../../components/ShellMain';
import { isDesktopWidth, setAsideOpen, useAppState } from '../../lib/app-state';
import { queryClient } from '../../lib/query-client';
import { ShellChat } from './ShellChat';
import { ShellHeader } from './ShellHeader';
import classes from './ShellLayout.module.css';
import { ShellNavigation } from './ShellNavigation';

/**
 * The signed-in shell: header, account sections in the side bar, the page, the footer.
 * TanStack Query is provided here, not app-wide: the account pages cache server state, the
 * public pages only submit forms, and keeping it off them keeps the sign-in page light.
 */
export function ShellLayout() {
  const { t } = useTranslation();
  const asideOpen = useAppState((state) => state.asideOpen);

  // On a phone the side bar covers the page: picking a section closes it.
  const closeOnMobile = () => {
    if (!isDesktopWidth()) setAsideOpen(false);
  };

  return (
    <QueryClientProvider client={queryClient}>
      <AppShell
        header={{ height: 60 }}
        navbar={{ width: 264, breakpoint: 'sm', collapsed: { mobile: !asideOpen, desktop: !asideOpen } }}
        padding="lg"
        className={classes.shell}
        classNames={{ header: classes.header, navbar: classes.navbar }}
      >
        <AppShell.Header>
          <ShellHeader />
        </AppShell.Header>

        <AppShell.Navbar aria-label={t('shell.mainNavigation')}>
          <ScrollArea p="sm">
            <ShellNavigation onNavigate={closeOnMobile} />
          </ScrollArea>
        </AppShell.Navbar>

        <ShellMain>
          <Outlet />
        </ShellMain>
      </AppShell>
      <ShellChat />
      <ReauthDialog />
    </QueryClientProvider>
  );
}
