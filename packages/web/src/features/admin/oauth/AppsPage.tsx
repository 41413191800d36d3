import '@mantine/core/styles/Alert.css';
import '@mantine/core/styles/Badge.css';
import '@mantine/core/styles/Button.css';
import '@mantine/core/styles/Code.css';
import '@mantine/core/styles/Image.css';
import '@mantine/core/styles/Input.css';
import { useState } from 'react';
import { Badge, Button, FileInput, Group, Image, Stack } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { AdminApp } from '@portal/contracts';
import { NameCell } from '../../../components/cells';
import { DataTable } from '../../../components/DataTable';
import { PageHeader } from '../../../components/PageHeader';
import { Section } from '../../../components/Section';
import { useOperator } from '../operator-context';
import { fileAsBase64, useApps, useDeleteApp, useRegisterApp, useRotateAppSecret, useSetAppDisabled, useSetAppLogo, useUpdateApp } from './api';
import { AppForm } from './AppForm';
import { changeDialog, ReasonDialog, type PendingChange } from '../ReasonDialog';
import { LoadFailed } from '../LoadFailed';
import { SecretOnce } from '../SecretOnce';
import { ChangeButton } from '../ChangeButton';

/** A secret just made: shown in this page once, never read back from the server. */
interface ShownSecret {
  clientId: string;
  secret: string;
}

/**
 * /admin/apps: the products' own clients (read-only, from their file) and outside apps. Owners
 * register, edit, rotate a secret (shown once), disable, enable and delete; support reads.
 */
export function AppsPage() {
  const { t } = useTranslation();
  const isOwner = useOperator().roles.includes('owner');
  const apps = useApps();
  const [selected, setSelected] = useState<string | null>(null);
  const [registering, setRegistering] = useState(false);
  const [change, setChange] = useState<PendingChange | null>(null);
  const [shown, setShown] = useState<ShownSecret | null>(null);
  const [logo, setLogo] = useState<File | null>(null);
  const register = useRegisterApp();
  const update = useUpdateApp();
  const rotate = useRotateAppSecret();
  const setDisabled = useSetAppDisabled();
  const remove = useDeleteApp();
  const setLogoOf = useSetAppLogo();
  const app = apps.data?.apps.find((item) => item.client_id === selected) ?? null;
  const editable = isOwner && app?.kind === 'outside';
  const choose = (clientId: string | null) => {
    setSelected(clientId);
    setShown(null);
    setLogo(null);
  };

  return (
    <Stack gap="lg" data-testid="admin-apps">
      <PageHeader title={t('admin.oauth.apps.title')} description={t('admin.oauth.apps.description')} />
      <LoadFailed when={apps.isError} message={t('admin.oauth.apps.loadFailed')} />
      {shown && (
        <SecretOnce
          title={t('admin.oauth.apps.secretTitle')}
          text={t('admin.oauth.apps.secretOnce', { clientId: shown.clientId })}
          secret={shown.secret}
          testId="app-secret"
          valueTestId="app-secret-value"
          dismiss={{ label: t('admin.oauth.apps.secretDone'), testId: 'app-secret-dismiss', onClick: () => setShown(null) }}
        />
      )}
      {isOwner && !registering && (
        <Group>
          <Button onClick={() => setRegistering(true)} data-testid="app-register">
            {t('admin.oauth.apps.registerApp')}
          </Button>
        </Group>
      )}
      {registering && (
        <Section title={t('admin.oauth.apps.registerApp')} description={t('admin.oauth.apps.registerHint')}>
          <AppForm
            register
            canChange={isOwner}
            onCancel={() => setRegistering(false)}
            onSubmit={(settings) =>
              setChange({
                title: t('admin.oauth.apps.registerTitle'),
                body: t('admin.oauth.apps.registerBody', { name: settings.name }),
                confirmLabel: t('admin.oauth.apps.register'),
                run: async (reason) => {
                  const made = await register.mutateAsync({ ...settings, reason });
                  setRegistering(false);
                  setSelected(made.app.client_id);
                  setShown(made.client_secret ? { clientId: made.app.client_id, secret: made.client_secret } : null);
                },
              })
            }
          />
        </Section>
      )}
      {apps.data && (
        <DataTable<AdminApp> rows={apps.data.apps} rowKey={(row) => row.client_id} testId="apps-table" rowTestId="app-row" label={t('admin.oauth.apps.title')} minWidth={560}
          rowProps={(row) => ({ 'data-current': row.client_id === selected ? 'true' : undefined, 'data-client-id': row.client_id })}
          columns={[
            {
              header: t('admin.oauth.apps.columns.app'),
              cell: (row) => <NameCell name={row.name} detail={row.client_id} detailMono />,
            },
            { header: t('admin.oauth.apps.columns.kind'), cell: (row) => (row.kind === 'first_party' ? t('admin.oauth.apps.firstParty') : t('admin.oauth.apps.outside')) },
            {
              header: t('admin.oauth.apps.columns.status'),
              cell: (row) => (
                <Badge color={row.disabled ? 'red' : 'teal'} variant="light" miw="max-content" data-testid="app-status">
                  {row.disabled ? t('admin.oauth.apps.disabled') : t('admin.oauth.apps.active')}
                </Badge>
              ),
            },
          ]}
          actions={{
            label: t('admin.oauth.apps.columns.actions'),
            cell: (row) => (
              <Button size="xs" variant="light" onClick={() => choose(row.client_id)} data-testid="app-open" aria-label={t('admin.oauth.apps.openApp', { name: row.name })}>
                {t('admin.oauth.apps.open')}
              </Button>
            ),
          }}
        />
      )}

      {app && (
        <Section title={app.name} description={app.kind === 'first_party' ? t('admin.oauth.apps.firstPartyHint') : t('admin.oauth.apps.outsideHint')}>
          <Stack gap="md" data-testid="app-details">
            <AppForm
              key={`${app.client_id}:${app.updated_at ?? ''}`}
              app={app}
              canChange={editable}
              onSubmit={(settings) =>
                setChange({
                  title: t('admin.oauth.apps.saveTitle'),
                  body: t('admin.oauth.apps.saveBody', { name: app.name }),
                  confirmLabel: t('admin.oauth.apps.save'),
                  run: (reason) => update.mutateAsync({ clientId: app.client_id, settings, reason }),
                })
              }
            />
            {app.kind === 'outside' && (
              <Group gap="md" align="flex-end">
                {app.logo_uri && <Image src={app.logo_uri} w={48} h={48} radius="sm" alt={t('admin.oauth.apps.logoOf', { name: app.name })} />}
                {editable && (
                  <>
                    <FileInput label={t('admin.oauth.apps.logo')} accept="image/png,image/jpeg,image/webp" value={logo} onChange={setLogo} clearable w={260} data-testid="app-logo-file" />
                    <Button
                      variant="default"
                      disabled={!logo}
                      onClick={() =>
                        setChange({
                          title: t('admin.oauth.apps.logoTitle'),
                          body: t('admin.oauth.apps.logoBody', { name: app.name }),
                          confirmLabel: t('admin.oauth.apps.logoSave'),
                          run: async (reason) => {
                            await setLogoOf.mutateAsync({ clientId: app.client_id, imageBase64: await fileAsBase64(logo!), reason });
                            setLogo(null);
                          },
                        })
                      }
                    >
                      {t('admin.oauth.apps.logoSave')}
                    </Button>
                  </>
                )}
              </Group>
            )}
            {editable && (
              <Group gap="sm">
                {!app.public && (
                  <ChangeButton
                    testId="app-rotate"
                    onAsk={setChange}
                    change={{
                      title: t('admin.oauth.apps.rotateTitle'),
                      body: t('admin.oauth.apps.rotateBody', { name: app.name }),
                      confirmLabel: t('admin.oauth.apps.rotate'),
                      danger: true,
                      run: async (reason) => {
                        const rotated = await rotate.mutateAsync({ clientId: app.client_id, reason });
                        setShown({ clientId: rotated.client_id, secret: rotated.client_secret });
                      },
                    }}
                  />
                )}
                <ChangeButton
                  testId={app.disabled ? 'app-enable' : 'app-disable'}
                  red={!app.disabled}
                  onAsk={setChange}
                  change={{
                    title: app.disabled ? t('admin.oauth.apps.enableTitle') : t('admin.oauth.apps.disableTitle'),
                    body: app.disabled ? t('admin.oauth.apps.enableBody', { name: app.name }) : t('admin.oauth.apps.disableBody', { name: app.name }),
                    confirmLabel: app.disabled ? t('admin.oauth.apps.enable') : t('admin.oauth.apps.disable'),
                    danger: !app.disabled,
                    run: (reason) => setDisabled.mutateAsync({ clientId: app.client_id, disabled: !app.disabled, reason }),
                  }}
                />
                <ChangeButton
                  testId="app-delete"
                  red
                  onAsk={setChange}
                  change={{
                    title: t('admin.oauth.apps.deleteTitle'),
                    body: t('admin.oauth.apps.deleteBody', { name: app.name }),
                    confirmLabel: t('admin.oauth.apps.delete'),
                    danger: true,
                    run: async (reason) => {
                      await remove.mutateAsync({ clientId: app.client_id, reason });
                      choose(null);
                    },
                  }}
                />
              </Group>
            )}
          </Stack>
        </Section>
      )}
      <ReasonDialog {...changeDialog(change)} onClose={() => setChange(null)} />
    </Stack>
  );
}
