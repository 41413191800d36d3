import '@mantine/core/styles/Badge.css';
import '@mantine/core/styles/Code.css';
import '@mantine/core/styles/Image.css';
import '@mantine/core/styles/Paper.css';
import '@mantine/core/styles/SimpleGrid.css';
import { useState } from 'react';
import { Alert, Button, Code, Group, Image, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { VERIFICATION_CODE_LENGTH, type TwoFactorMethod } from '@portal/contracts';
import { StateBadge } from '../../components/cells';
import { OtpInput } from '../../components/form/OtpInput';
import { useCodeCheck } from '../../components/form/use-code-check';
import { useSendCode } from '../../components/form/SendCodeButton';
import { PasskeyPasswordChangeDialog } from './PasskeyPasswordChangeDialog';
import { PasskeyPasswordConfirmDialog } from './PasskeyPasswordConfirmDialog';
import { PasswordDialog, type PasswordCredentials } from '../../components/dialogs/PasswordDialog';
import { PageHeader } from '../../components/PageHeader';
import { Section } from '../../components/Section';
import { notify } from '../../lib/api';
import { useAuthState } from '../../lib/session';
import {
  changePassword,
  disableTwoFactor,
  enableEmailTwoFactor,
  enableTotp,
  regenerateRecoveryCodes,
  sendTwoFactorEmail,
  startTotpSetup,
  useRefreshSecurity,
  useTwoFactorStatus,
  type RecoveryCodes,
  type TotpSetup,
} from './api';
import { RecoveryCodesPanel } from './RecoveryCodesPanel';
import { Loading } from './shared';
import { FailureAlert } from '../../components/FailureAlert';

const LOW_RECOVERY_CODES = 3;

/** The code that turns a method on, and the button; a wrong code is said under the boxes. */
function EnableCodeForm({ label, onEnable }: { label: string; onEnable(code: string): Promise<unknown> }) {
  const { t } = useTranslation();
  const entry = useCodeCheck(onEnable);
  return (
    <form noValidate onSubmit={entry.submitForm}>
      <Stack gap="sm" align="flex-start">
        <OtpInput label={label} {...entry.input} name="enable-code" />
        <Button type="submit" loading={entry.pending} data-testid="enable-two-step">
          {t('security.twoStep.enable')}
        </Button>
      </Stack>
    </form>
  );
}

function TotpSetupView({ setup, onEnabled, onBack }: { setup: TotpSetup; onEnabled(codes: RecoveryCodes): void; onBack(): void }) {
  const { t } = useTranslation();
  return (
    <Section title={t('security.twoStep.app')}>
      <Stack gap="md">
        <Text size="sm">{t('security.twoStep.scan')}</Text>
        <Paper withBorder p="xs" w={196} bg="white">
          <Image src={setup.qr_code} alt={t('security.twoStep.qrAlt')} w={176} h={176} data-testid="totp-qr" />
        </Paper>
        <Stack gap={4}>
          <Text size="sm">{t('security.twoStep.secretLabel')}</Text>
          <Code fz="sm" style={{ wordBreak: 'break-all', alignSelf: 'flex-start' }} data-testid="totp-secret">
            {setup.secret}
          </Code>
        </Stack>
        <Text size="sm">{t('security.twoStep.enterCode', { length: VERIFICATION_CODE_LENGTH })}</Text>
        <EnableCodeForm label={t('security.twoStep.codeLabel')} onEnable={async (code) => onEnabled(await enableTotp(code))} />
        <Group>
          <Button variant="subtle" px={0} onClick={onBack}>
            {t('security.twoStep.back')}
          </Button>
        </Group>
      </Stack>
    </Section>
  );
}

function EmailSetupView({ email, onEnabled, onBack }: { email: string; onEnabled(codes: RecoveryCodes): void; onBack(): void }) {
  const { t } = useTranslation();
  const { sent, sending, send } = useSendCode(sendTwoFactorEmail);
  return (
    <Section title={t('security.twoStep.email')} description={t('security.twoStep.emailDescription', { email })}>
      <Stack gap="md" align="flex-start">
        {sent && (
          <Text size="sm" role="status">
            {t('security.twoStep.emailSent', { length: VERIFICATION_CODE_LENGTH, email })}
          </Text>
        )}
        {sent && <EnableCodeForm label={t('security.twoStep.codeLabel')} onEnable={async (code) => onEnabled(await enableEmailTwoFactor(code))} />}
        <Group gap="sm">
          <Button variant={sent ? 'subtle' : 'filled'} loading={sending} onClick={() => void send()} data-testid="send-two-step-email">
            {sent ? t('security.twoStep.resend') : t('security.twoStep.sendCode')}
          </Button>
          <Button variant="subtle" onClick={onBack}>
            {t('security.twoStep.back')}
          </Button>
        </Group>
      </Stack>
    </Section>
  );
}

type Setup = { kind: 'totp'; data: TotpSetup } | { kind: 'email' } | null;
type Confirming = 'disable' | 'regenerate' | null;

/**
 * /security/two-step-verification. Off: choose the authenticator app (QR code and key, then
 * a code) or email (a mailed code); the recovery codes are then shown once. On: the method,
 * the recovery codes left, new recovery codes and turning it off (password and a code).
 */
export function TwoStepVerificationPage() {
  const { t } = useTranslation();
  const { user } = useAuthState();
  const status = useTwoFactorStatus();
  const refresh = useRefreshSecurity();
  const [setup, setSetup] = useState<Setup>(null);
  const [starting, setStarting] = useState(false);
  const [codes, setCodes] = useState<string[] | null>(null);
  const [confirming, setConfirming] = useState<Confirming>(null);
  const [needsPassword, setNeedsPassword] = useState<Confirming>(null);
  const [settingPassword, setSettingPassword] = useState<Confirming>(null);

  const method: TwoFactorMethod | null = status.data?.method ?? null;
  const remaining = status.data?.recovery_codes_remaining ?? 0;

  const enabled = async ({ recovery_codes }: RecoveryCodes) => {
    setSetup(null);
    setCodes(recovery_codes);
    notify('success', t('security.twoStep.enabled'));
    await refresh();
  };

  const startTotp = async () => {
    setStarting(true);
    try {
      setSetup({ kind: 'totp', data: await startTotpSetup() });
    } catch {
      // reported by the API client's policy
    } finally {
      setStarting(false);
    }
  };

  /** Turning off and new codes ask for the password: a passkey-only account sets one first. */
  const ask = (what: Exclude<Confirming, null>) => {
    if (user?.has_password === false) setNeedsPassword(what);
    else setConfirming(what);
  };

  const confirm = async (credentials: PasswordCredentials) => {
    if (confirming === 'disable') {
      await disableTwoFactor(credentials);
      setConfirming(null);
      notify('success', t('security.twoStep.disabled'));
    } else {
      const answer = await regenerateRecoveryCodes(credentials);
      setConfirming(null);
      setCodes(answer.recovery_codes);
      notify('success', t('security.twoStep.regenerated'));
    }
    await refresh();
  };

  let body;
  if (status.isPending) body = <Loading />;
  else if (!status.data) body = <FailureAlert failure={t('security.twoStep.loadFailed')} />;
  else if (codes) {
    body = (
      <Section title={t('security.twoStep.codesTitle')}>
        <RecoveryCodesPanel codes={codes} onDone={() => setCodes(null)} />
      </Section>
    );
  } else if (method) {
    body = (
      <Section title={t('security.twoStep.statusOn')}>
        <Stack gap="sm" data-testid="two-step-on">
          <Text size="sm" data-testid="two-step-method">
            {t('security.twoStep.method', { method: t(`security.methods.${method}`) })}
          </Text>
          <Text size="sm" data-testid="recovery-remaining">
            {t('security.twoStep.remaining', { count: remaining })}
          </Text>
          {remaining <= LOW_RECOVERY_CODES && (
            <Alert color="yellow" variant="light">
              {t('security.twoStep.remainingLow')}
            </Alert>
          )}
          <Group gap="sm" mt="xs">
            <Button variant="default" onClick={() => ask('regenerate')} data-testid="regenerate-codes">
              {t('security.twoStep.regenerate')}
            </Button>
            <Button color="red" variant="light" onClick={() => ask('disable')} data-testid="disable-two-step">
              {t('security.twoStep.disable')}
            </Button>
          </Group>
        </Stack>
      </Section>
    );
  } else if (setup?.kind === 'totp') {
    body = <TotpSetupView setup={setup.data} onEnabled={(answer) => void enabled(answer)} onBack={() => setSetup(null)} />;
  } else if (setup?.kind === 'email') {
    body = <EmailSetupView email={user?.email ?? ''} onEnabled={(answer) => void enabled(answer)} onBack={() => setSetup(null)} />;
  } else {
    body = (
      <Stack gap="md" data-testid="two-step-off">
        <Group gap="xs">
          <StateBadge color="gray">{t('security.overview.twoStepOff')}</StateBadge>
          <Text size="sm">{t('security.twoStep.statusOff')}</Text>
        </Group>
        <Title order={2} fz="h4">
          {t('security.twoStep.choose')}
        </Title>
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
          <Paper withBorder p="lg">
            <Stack gap="sm" h="100%" justify="space-between" align="flex-start">
              <Stack gap={4}>
                <Text fw={600}>{t('security.twoStep.app')}</Text>
                <Text size="sm" c="dimmed">
                  {t('security.twoStep.appDescription')}
                </Text>
              </Stack>
              <Button loading={starting} onClick={() => void startTotp()} data-testid="choose-totp">
                {t('security.twoStep.useApp')}
              </Button>
            </Stack>
          </Paper>
          <Paper withBorder p="lg">
            <Stack gap="sm" h="100%" justify="space-between" align="flex-start">
              <Stack gap={4}>
                <Text fw={600}>{t('security.twoStep.email')}</Text>
                <Text size="sm" c="dimmed">
                  {t('security.twoStep.emailDescription', { email: user?.email ?? '' })}
                </Text>
              </Stack>
              <Button variant="default" onClick={() => setSetup({ kind: 'email' })} data-testid="choose-email">
                {t('security.twoStep.useEmail')}
              </Button>
            </Stack>
          </Paper>
        </SimpleGrid>
      </Stack>
    );
  }

  return (
    <Stack gap="lg">
      <PageHeader title={t('security.twoStep.title')} description={t('security.twoStep.description')} />
      {body}
      <PasswordDialog
        opened={confirming !== null}
        onClose={() => setConfirming(null)}
        title={t(confirming === 'disable' ? 'security.twoStep.disableTitle' : 'security.twoStep.regenerateTitle')}
        method={method}
        submitLabel={t(confirming === 'disable' ? 'security.twoStep.disable' : 'security.twoStep.regenerate')}
        danger={confirming === 'disable'}
        onSubmit={confirm}
      >
        <Text size="sm">{t(confirming === 'disable' ? 'security.twoStep.disableBody' : 'security.twoStep.regenerateBody')}</Text>
      </PasswordDialog>
      <PasskeyPasswordConfirmDialog
        opened={needsPassword !== null}
        onClose={() => setNeedsPassword(null)}
        onSetPassword={() => {
          setSettingPassword(needsPassword);
          setNeedsPassword(null);
        }}
      />
      <PasskeyPasswordChangeDialog
        opened={settingPassword !== null}
        onClose={() => setSettingPassword(null)}
        onSubmit={async (body) => {
          await changePassword(body);
          notify('success', t('security.password.set'));
          const next = settingPassword;
          setSettingPassword(null);
          setConfirming(next);
          await refresh();
        }}
      />
    </Stack>
  );
}
