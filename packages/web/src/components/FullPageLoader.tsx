import { Spinner } from './Spinner';
import classes from './FullPageLoader.module.css';

/** What shows while the first route resolves (session, guards, the page's chunk). */
export function FullPageLoader() {
  return (
    <div className={classes.root} aria-busy="true">
      <Spinner />
    </div>
  );
}
