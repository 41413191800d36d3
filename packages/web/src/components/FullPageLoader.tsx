import type { CSSProperties } from 'react';
import { DATA_FETCH_MIN_DELAY_MS } from '@portal/contracts';
import { Spinner } from './Spinner';
import classes from './FullPageLoader.module.css';

/**
 * What shows while the first route resolves (session, guards, the page's chunk). The spinner
 * appears only once that has taken DATA_FETCH_MIN_DELAY_MS: a fast start shows no flash.
 */
export function FullPageLoader() {
  return (
    <div className={classes.root} aria-busy="true" style={{ '--portal-loader-delay': `${DATA_FETCH_MIN_DELAY_MS}ms` } as CSSProperties}>
      <Spinner />
    </div>
  );
}
