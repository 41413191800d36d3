import '@mantine/core/styles/Input.css';
import '@mantine/core/styles/PinInput.css';
import { useId } from 'react';
import { Input, PinInput } from '@mantine/core';
import { VERIFICATION_CODE_LENGTH } from '@portal/contracts';

interface OtpInputProps {
  label: string;
  value: string;
  onChange(value: string): void;
  /** All digits typed (or pasted): the dialog may submit at once. */
  onComplete?(value: string): void;
  error?: string;
  description?: string;
  autoFocus?: boolean;
  disabled?: boolean;
  name?: string;
}

/**
 * The mailed or authenticator code (spec section 9: 6 digits): one box per digit, digits
 * only, the phone's number pad and the browser's one-time-code autofill. The label and
 * error belong to the group; each box is named for screen readers.
 */
export function OtpInput({ label, value, onChange, onComplete, error, description, autoFocus, disabled, name }: OtpInputProps) {
  const id = useId();
  return (
    <Input.Wrapper label={label} error={error} description={description} id={id} labelProps={{ htmlFor: `${id}-1`, id: `${id}-label` }}>
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
        data-testid="otp-input"
      />
    </Input.Wrapper>
  );
}
