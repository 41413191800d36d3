import '@mantine/core/styles/Code.css';
import { Checkbox, Code, type CheckboxProps } from '@mantine/core';

/** A key scope's box in a Checkbox.Group: what the scope allows, then the scope as the API names it. */
export function ScopeCheckbox({ scope, name, ...props }: { scope: string; name: string } & Omit<CheckboxProps, 'value' | 'label'>) {
  return (
    <Checkbox
      value={scope}
      label={
        <span>
          {name} <Code>{scope}</Code>
        </span>
      }
      {...props}
    />
  );
}
