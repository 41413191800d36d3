import '@mantine/core/styles/Input.css';
import '@mantine/core/styles/PinInput.css';
import { useId } from 'react';
import { Input, PinInput } from '@mantine/core';
import { VERIFICATION_CODE_LENGTH } from '@portal/contracts';

export interface OtpInputProps {
  label: string;
  value: string;
  onChange(value: string): void;
  /** All digits typed (or pasted): the form may submit at once. */
  onComplete?(value: string): void;
  error?: string;
  description?: string;
  autoFocus?: boolean;
  disabled?: boolean;
  name?: string;
  /** The boxes' test id (default `otp-input`). */
  testId?: string;
}

/**
 * The one six-digit code input of the app (the spec's constants): the mailed or authenticator code
 * wherever it is asked for. One box per digit, digits only, the phone's number pad, the
 * browser's one-time-code autofill and a whole code pasted into any box. The label names
 * the group of boxes and each box; the error (and description) is tied to every box and
 * announced when it appears.
 */
export function OtpInput({ label, value, onChange, onComplete, error, description, autoFocus, disabled, name, testId = 'otp-input' }: OtpInputProps) {
  const id = useId();
  return (
    <Input.Wrapper
      label={label}
      error={error}
      description={description}
      id={id}
      labelProps={{ htmlFor: `${id}-1`, id: `${id}-label` }}
      errorProps={{ role: 'alert' }}
    >
      <PinInput
        id={id}
        name={name}
        aria-labelledby={`${id}-label`}
        ariaLabel={label}
        length={VERIFICATION_CODE_LENGTH}
        type="number"
        inputMode="numeric"
        oneTimeCode
        value={value}
        // Completion is told here rather than by PinInput's onComplete, which fires once per
        // mount: a code cleared after a wrong try must complete again.
        onChange={(next) => {
          onChange(next);
          if (next.length === VERIFICATION_CODE_LENGTH && next !== value) onComplete?.(next);
        }}
        error={Boolean(error)}
        autoFocus={autoFocus}
        disabled={disabled}
        mt={4}
        data-testid={testId}
      />
    </Input.Wrapper>
  );
}
