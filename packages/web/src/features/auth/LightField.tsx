import { useId, useState, type InputHTMLAttributes, type ReactNode } from 'react';
import { Stack } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import classes from './LightField.module.css';

interface LightFieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'size'> {
  label: ReactNode;
  error?: ReactNode;
  /** A password field gets a show/hide button. */
  type?: 'text' | 'email' | 'password';
}

/**
 * A labelled input with its error, for the sign-in steps (see LightField.module.css for
 * why not Mantine's TextInput). The error is tied to the input for screen readers.
 */
export function LightField({ label, error, type = 'text', id, ...input }: LightFieldProps) {
  const { t } = useTranslation();
  const generated = useId();
  const inputId = id ?? generated;
  const errorId = `${inputId}-error`;
  const [visible, setVisible] = useState(false);
  const isPassword = type === 'password';

  return (
    <div className={classes.field}>
      <label className={classes.label} htmlFor={inputId}>
        {label}
      </label>
      <div className={classes.control}>
        <input
          {...input}
          id={inputId}
          type={isPassword && visible ? 'text' : type}
          className={classes.input}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? errorId : undefined}
          data-with-toggle={isPassword || undefined}
        />
        {isPassword && (
          <button
            type="button"
            className={classes.toggle}
            onClick={() => setVisible((shown) => !shown)}
            aria-label={t(visible ? 'form.hidePassword' : 'form.showPassword')}
            aria-pressed={visible}
          >
            <svg width="16" height="16" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" aria-hidden="true">
              <path d="M2 12s3.6-7 10-7 10 7 10 7-3.6 7-10 7S2 12 2 12z" />
              <circle cx="12" cy="12" r="3" />
              {visible && <path d="M3 3l18 18" />}
            </svg>
          </button>
        )}
      </div>
      {error && (
        <div id={errorId} className={classes.error}>
          {error}
        </div>
      )}
    </div>
  );
}

/**
 * A sign-in step's form: its fields, message and button stacked as every step draws them. The
 * browser's own validation is off (the step checks its fields and says why in the language
 * shown), and a submit stays on the page: it runs the step's handler.
 */
export function LightForm({ onSubmit, children }: { onSubmit(): Promise<void> | void; children: ReactNode }) {
  return (
    <form
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        void onSubmit();
      }}
    >
      <Stack gap="md">{children}</Stack>
    </form>
  );
}

interface LightButtonProps {
  children: ReactNode;
  loading?: boolean;
  disabled?: boolean;
}

/** The sign-in steps' submit button; busy while the request runs. */
export function LightSubmit({ children, loading, disabled }: LightButtonProps) {
  return (
    <button type="submit" className={classes.button} disabled={disabled} data-loading={loading || undefined} aria-busy={loading || undefined}>
      {loading && <span className={classes.spinner} aria-hidden="true" />}
      {children}
    </button>
  );
}

interface LightActionProps extends LightButtonProps {
  onClick(): void;
  'data-testid'?: string;
}

/** A secondary action on the sign-in steps, drawn like Mantine's `variant="default"` Button. */
export function LightButton({ children, loading, disabled, onClick, 'data-testid': testId }: LightActionProps) {
  return (
    <button
      type="button"
      className={classes.button}
      data-variant="default"
      disabled={disabled}
      onClick={onClick}
      data-loading={loading || undefined}
      aria-busy={loading || undefined}
      data-testid={testId}
    >
      {loading && <span className={classes.spinner} aria-hidden="true" />}
      {children}
    </button>
  );
}
