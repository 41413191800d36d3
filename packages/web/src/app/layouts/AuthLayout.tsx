import type { CSSProperties } from 'react';
import { Outlet } from 'react-router';
import { AppFooter } from '../../components/AppFooter';
import { BrandLogo } from '../../components/BrandLogo';
import { LanguagePicker } from '../../components/LanguagePicker';
import { ServicePanel } from '../../components/ServicePanel';
import { useCurrentService } from '../../lib/service';
import classes from './AuthLayout.module.css';

/**
 * Sign-in, sign-up and recovery pages: the service panel (name, intro) in the product's
 * accent colour beside the page. On small screens the panel moves above the page.
 */
export function AuthLayout() {
  const service = useCurrentService();
  return (
    <div
      className={classes.root}
      data-service-theme={service.entry.theme}
      style={{ '--portal-accent': service.accent } as CSSProperties}
    >
      <aside className={classes.panel} data-testid="brand-panel">
        {/* The panel's colour runs the page's full length; its content stays in view. */}
        <div className={classes.panelInner}>
          <div className={classes.panelLogo}>
            <BrandLogo />
          </div>
          <div className={classes.panelBody}>
            <ServicePanel service={service} />
          </div>
        </div>
      </aside>
      <div className={classes.content}>
        <div className={classes.toolbar}>
          <LanguagePicker />
        </div>
        <main className={classes.main}>
          <Outlet />
        </main>
        <AppFooter />
      </div>
    </div>
  );
}
