import { useState } from 'react';
import { Alert, Button, Group, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { PasskeyCreateDialog } from './PasskeyCreateDialog';
import { PageHeader } from '../../components/PageHeader';
import { passkeysSupported, runRegistration } from '../../components/passkey/ceremony';
import { PasskeyDeviceTable } from './PasskeyDeviceTable';
import { Section } from '../../components/Section';
import { notify } from '../../lib/api';
import { enablePasskey, passkeyEnableOptions, removePasskey, renamePasskey, usePasskeys, useRefreshSecurity } from './api';
import { Loaded } from './shared';

/** /security/webauthn: create a passkey (the browser's prompt), and the passkeys with rename and remove. */
export function PasskeysPage() {
  const { t } = useTranslation();
  const passkeys = usePasskeys();
  const refresh = useRefreshSecurity();
  const [creating, setCreating] = useState(false);
  const supported = passkeysSupported();

  const create = async (name: string | undefined) => {
    const options = await passkeyEnableOptions();
    const response = await runRegistration(options);
    await enablePasskey(response, name);
    setCreating(false);
    notify('success', t('security.passkeys.created'));
    await refresh();
  };

  return (
    <Stack gap="lg">
      <PageHeader title={t('security.passkeys.title')} description={t('security.passkeys.description')} />
      {!supported && (
        <Alert color="yellow" variant="light" role="alert" title={t('security.passkeys.unsupported')} data-testid="passkeys-unsupported">
          {t('security.passkeys.unsupportedBody')}
        </Alert>
      )}
      <Section title={t('security.passkeys.list')}>
        <Stack gap="md">
          <Loaded query={passkeys} failure={t('security.passkeys.loadFailed')}>
            {(list) =>
              list.length === 0 ? (
                <Text size="sm" c="dimmed" data-testid="passkeys-empty">
                  {t('security.passkeys.empty')}
                </Text>
              ) : (
                <PasskeyDeviceTable
                  passkeys={list}
                  onRename={async (id, name) => {
                    await renamePasskey(id, name);
                    notify('success', t('security.passkeys.renamed'));
                    await refresh();
                  }}
                  onRemove={async (id) => {
                    await removePasskey(id);
                    notify('success', t('security.passkeys.removed'));
                    await refresh();
                  }}
                />
              )
            }
          </Loaded>
          <Group>
            <Button onClick={() => setCreating(true)} disabled={!supported} data-testid="create-passkey">
              {t('security.passkeys.create')}
            </Button>
          </Group>
        </Stack>
      </Section>
      <PasskeyCreateDialog opened={creating} onClose={() => setCreating(false)} onCreate={create} />
    </Stack>
  );
}
