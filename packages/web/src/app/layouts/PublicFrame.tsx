import type { ReactNode } from 'react';
import { AppFooter } from '../../components/AppFooter';
import { BrandLogo } from '../../components/BrandLogo';
import { LanguagePicker } from '../../components/LanguagePicker';
import classes from './PublicFrame.module.css';

/** Logo and language picker above, footer below: for flow, result and error pages. */
export function PublicFrame({ children }: { children: ReactNode }) {
  return (
    <div className={classes.root}>
      <header className={classes.header}>
        <BrandLogo />
        <LanguagePicker />
      </header>
      <main className={classes.main}>{children}</main>
      <div className={classes.footer}>
        <AppFooter />
      </div>
    </div>
  );
}
