import type { ReactNode } from 'react';
import { Group } from '@mantine/core';
import { AppFooter } from '../../components/AppFooter';
import { BrandLogo } from '../../components/BrandLogo';
import { LanguagePicker } from '../../components/LanguagePicker';
import classes from './AdminLayout.module.css';

/** Logo and language above, footer below: what /admin shows anyone the console is not open to (as the not-found page). */
export function AdminFrame({ children }: { children: ReactNode }) {
  return (
    <div className={classes.frame}>
      <Group component="header" justify="space-between" wrap="nowrap" px="lg" py="md" className={classes.frameHeader}>
        <BrandLogo />
        <LanguagePicker />
      </Group>
      <main className={classes.frameMain}>{children}</main>
      <div className={classes.frameFooter}>
        <AppFooter />
      </div>
    </div>
  );
}
