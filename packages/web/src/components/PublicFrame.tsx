import type { ReactNode } from 'react';
import { AppFooter } from './AppFooter';
import { BrandLogo } from './BrandLogo';
import { LanguagePicker } from './LanguagePicker';
import classes from './PublicFrame.module.css';

/** Logo and language picker above, footer below: for flow, result and error pages, and the console's door (what /admin shows anyone it is not open to). */
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
