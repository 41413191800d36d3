import '@mantine/core/styles/AppShell.css';
import { AppShell } from '@mantine/core';
import type { ReactNode } from 'react';
import { AppFooter } from './AppFooter';
import classes from './ShellMain.module.css';

/** A shell's page area (the account's and the operators'): the page, then the footer. */
export function ShellMain({ children }: { children: ReactNode }) {
  return (
    <AppShell.Main className={classes.main}>
      {children}
      <div className={classes.footer}>
        <AppFooter />
      </div>
    </AppShell.Main>
  );
}
