import classes from './Spinner.module.css';

interface SpinnerProps {
  size?: 'sm' | 'md';
  /** Names what is loading for screen readers; decorative when absent. */
  label?: string;
}

/**
 * A CSS ring in the primary colour. The loaders on the first paint (route fallback, busy
 * overlay) use it rather than Mantine's Loader, whose code and styles would ride on the
 * sign-in page's budget for one spinning circle.
 */
export function Spinner({ size = 'md', label }: SpinnerProps) {
  return <span className={classes.spinner} data-size={size} role={label ? 'img' : undefined} aria-label={label} aria-hidden={label ? undefined : true} />;
}
