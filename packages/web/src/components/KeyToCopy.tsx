import '@mantine/core/styles/Button.css';
import '@mantine/core/styles/Code.css';
import { Button, Code, CopyButton, Group } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { LabelAbove } from './LabelAbove';

interface KeyToCopyProps {
  label: string;
  value: string;
  valueTestId: string;
  copyTestId: string;
}

/** A key just made, shown this once under its label, with the button that copies it. */
export function KeyToCopy({ label, value, valueTestId, copyTestId }: KeyToCopyProps) {
  const { t } = useTranslation();
  return (
    <LabelAbove label={label}>
      {(labelId) => (
        <Group gap="sm" wrap="nowrap" align="center">
          <Code block aria-labelledby={labelId} data-testid={valueTestId} style={{ flex: 1, minWidth: 0, wordBreak: 'break-all', whiteSpace: 'pre-wrap' }}>
            {value}
          </Code>
          <CopyButton value={value}>
            {({ copied, copy }) => (
              <Button variant={copied ? 'light' : 'filled'} color={copied ? 'teal' : undefined} onClick={copy} data-testid={copyTestId}>
                {copied ? t('common.copied') : t('common.copy')}
              </Button>
            )}
          </CopyButton>
        </Group>
      )}
    </LabelAbove>
  );
}
