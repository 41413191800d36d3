import '@mantine/core/styles/Button.css';
import '@mantine/core/styles/Input.css';
import type { ReactNode } from 'react';
import { Button, Group, TextInput } from '@mantine/core';

/**
 * A console list's search: one text field (and any `children`, such as a field to search by)
 * and its button; `onSearch` runs on the button or Enter. `needsText`: the button waits for
 * something typed (an empty search would list nothing useful).
 */
export function SearchForm({
  label,
  description,
  value,
  onChange,
  onSearch,
  maxLength = 254,
  needsText = false,
  inputTestId,
  buttonLabel,
  buttonTestId,
  children,
}: {
  label: string;
  description?: string;
  value: string;
  onChange(value: string): void;
  onSearch(): void;
  maxLength?: number;
  needsText?: boolean;
  inputTestId: string;
  buttonLabel: string;
  buttonTestId: string;
  children?: ReactNode;
}) {
  return (
    <form
      noValidate
      role="search"
      onSubmit={(event) => {
        event.preventDefault();
        onSearch();
      }}
    >
      <Group align="flex-end" gap="sm" wrap="wrap">
        <TextInput
          label={label}
          description={description}
          type="search"
          value={value}
          maxLength={maxLength}
          onChange={(event) => onChange(event.currentTarget.value)}
          style={{ flex: '1 1 16rem' }}
          data-testid={inputTestId}
        />
        {children}
        <Button type="submit" disabled={needsText && !value.trim()} data-testid={buttonTestId}>
          {buttonLabel}
        </Button>
      </Group>
    </form>
  );
}
