import '@mantine/core/styles/Checkbox.css';
import '@mantine/core/styles/CheckboxIndicator.css';
import '@mantine/core/styles/InlineInput.css';
import '@mantine/core/styles/SimpleGrid.css';
import '@mantine/core/styles/Code.css';
import { useState } from 'react';
import { Alert, Button, Checkbox, Code, CopyButton, Group, SimpleGrid, Stack } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { saveDownload } from '../../lib/download';
import { useAuthState } from '../../lib/session';

/**
 * The recovery codes, shown once (after turning two-step on, after making new ones): copy,
 * download as .txt, and 'I have saved my recovery codes' before the page moves on.
 */
export function RecoveryCodesPanel({ codes, onDone }: { codes: string[]; onDone(): void }) {
  const { t } = useTranslation();
  const { user } = useAuthState();
  const [saved, setSaved] = useState(false);
  const account = user?.email ?? user?.full_name ?? '';
  const text = `${t('security.twoStep.fileHeader', { account })}\n\n${codes.join('\n')}\n`;

  return (
    <Stack gap="md" data-testid="recovery-codes">
      <Alert color="yellow" variant="light" role="alert">
        {t('security.twoStep.codesBody')}
      </Alert>
      <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="xs" maw={420} component="ol" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
        {codes.map((code) => (
          <li key={code}>
            <Code fz="md" data-testid="recovery-code">
              {code}
            </Code>
          </li>
        ))}
      </SimpleGrid>
      <Group gap="sm">
        <Button variant="default" onClick={() => saveDownload(new Blob([text], { type: 'text/plain;charset=utf-8' }), `recovery-codes-${location.hostname}.txt`, 1000)} data-testid="download-codes">
          {t('security.twoStep.download')}
        </Button>
        <CopyButton value={codes.join('\n')}>
          {({ copied, copy }) => (
            <Button variant={copied ? 'light' : 'default'} color={copied ? 'teal' : undefined} onClick={copy}>
              {copied ? t('security.twoStep.copied') : t('security.twoStep.copy')}
            </Button>
          )}
        </CopyButton>
      </Group>
      <Checkbox label={t('security.twoStep.saved')} checked={saved} onChange={(event) => setSaved(event.currentTarget.checked)} data-testid="codes-saved" />
      <Group>
        <Button disabled={!saved} onClick={onDone} data-testid="codes-done">
          {t('security.twoStep.done')}
        </Button>
      </Group>
    </Stack>
  );
}
