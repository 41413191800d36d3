import '@mantine/core/styles/Button.css';
import '@mantine/core/styles/Input.css';
import { useState, type ReactNode } from 'react';
import { Button, Group, TextInput } from '@mantine/core';

/**
 * A console list's search: one text field (and any `children`, such as a field to search by)
 * and its button; `onSearch` gets the typed text, trimmed, on the button or Enter (what is typed
 * meanwhile searches nothing). `needsText`: the button waits for something typed (an empty
 * search would list nothing useful).
 */
export function SearchForm({
  label,
  description,
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
  onSearch(text: string): void;
  maxLength?: number;
  needsText?: boolean;
  inputTestId: string;
  buttonLabel: string;
  buttonTestId: string;
  children?: ReactNode;
}) {
  const [value, setValue] = useState('');
  return (
    <form
      noValidate
      role="search"
      onSubmit={(event) => {
        event.preventDefault();
        onSearch(value.trim());
      }}
    >
      <Group align="flex-end" gap="sm" wrap="wrap">
        <TextInput
          label={label}
          description={description}
          type="search"
          value={value}
          maxLength={maxLength}
          onChange={(event) => setValue(event.currentTarget.value)}
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
