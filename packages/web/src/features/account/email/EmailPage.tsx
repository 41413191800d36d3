import '@mantine/core/styles/Badge.css';
import '@mantine/core/styles/Button.css';
import '@mantine/core/styles/Input.css';
import { useState } from 'react';
import { Button, Group, Stack, Text, TextInput } from '@mantine/core';
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { StateBadge } from '../../../components/cells';
import { PageHeader } from '../../../components/PageHeader';
import { Section } from '../../../components/Section';
import { ConfirmDialog } from '../../../components/dialogs/ConfirmDialog';
import { placeServerErrors, useFieldMessage } from '../../../components/dialogs/form-errors';
import { OtpDialog } from './OtpDialog';
import { errorText, notify, type ApiError } from '../../../lib/api';
import { useAuthState } from '../../../lib/session';
import {
  useConfirmEmailChange,
  useRemoveRecoveryEmail,
  useRequestEducationEmail,
  useRequestEmailChange,
  useRequestRecoveryEmail,
  useVerifyRecoveryEmail,
} from './api';
import { ChangeEmailDialog, emailField, RecoveryEmailDialog } from './dialogs';
import { useCodeSteps } from './use-code-steps';

/** /email: the primary, the recovery and the education email. */
export function EmailPage() {
  const { t } = useTranslation();
  return (
    <Stack gap="lg">
      <PageHeader title={t('account.email.title')} description={t('account.email.description')} />
      <PrimaryEmailSection />
      <RecoveryEmailSection />
      <EducationEmailSection />
    </Stack>
  );
}

/** Change the primary email: address + password (+ second factor), then the code sent to the new address. */
function PrimaryEmailSection() {
  const { t } = useTranslation();
  const { user } = useAuthState();
  const request = useRequestEmailChange();
  const confirm = useConfirmEmailChange();
  const { step, setStep, pendingEmail, codeSentTo, close } = useCodeSteps();

  return (
    <Section title={t('account.email.primary.title')} description={t('account.email.primary.description')}>
      <Group justify="space-between" mt="xs" wrap="wrap">
        <Text fw={500} data-testid="primary-email">
          {user?.email}
        </Text>
        <Button variant="light" onClick={() => setStep('details')} data-testid="change-email">
          {t('account.email.primary.change')}
        </Button>
      </Group>
      <ChangeEmailDialog
        opened={step === 'details'}
        onClose={close}
        currentEmail={user?.email ?? ''}
        method={user?.two_factor_method}
        onSubmit={async (body) => {
          await request.mutateAsync(body);
          codeSentTo(body.new_email);
        }}
      />
      <OtpDialog
        opened={step === 'code'}
        onClose={close}
        title={t('account.email.primary.codeTitle')}
        email={pendingEmail}
        onSubmit={async (code) => {
          const saved = await confirm.mutateAsync(code);
          close();
          notify('success', t('account.email.primary.changed', { email: saved.email }));
        }}
      />
    </Section>
  );
}

/** Add, verify (code), replace and remove the recovery email. */
function RecoveryEmailSection() {
  const { t } = useTranslation();
  const { user } = useAuthState();
  const request = useRequestRecoveryEmail();
  const verify = useVerifyRecoveryEmail();
  const remove = useRemoveRecoveryEmail();
  const { step, setStep, pendingEmail, codeSentTo, close } = useCodeSteps<'remove'>();
  const recovery = user?.recovery_email ?? null;
  const verified = Boolean(user?.recovery_email_verified);

  return (
    <Section title={t('account.email.recovery.title')} description={t('account.email.recovery.description')}>
      {recovery ? (
        <Group justify="space-between" mt="xs" wrap="wrap" data-testid="recovery-email-row">
          <Group gap="sm">
            <Text fw={500}>{recovery}</Text>
            <StateBadge color={verified ? 'green' : 'yellow'}>{verified ? t('account.email.recovery.verified') : t('account.email.recovery.unverified')}</StateBadge>
          </Group>
          <Group gap="xs">
            {!verified && (
              <Button
                variant="light"
                onClick={() => codeSentTo(recovery)}
              >
                {t('account.email.recovery.verify')}
              </Button>
            )}
            <Button variant="default" onClick={() => setStep('details')}>
              {t('account.email.recovery.change')}
            </Button>
            <Button variant="subtle" color="red" onClick={() => setStep('remove')}>
              {t('account.email.recovery.remove')}
            </Button>
          </Group>
        </Group>
      ) : (
        <Group justify="space-between" mt="xs" wrap="wrap">
          <Text size="sm">{t('account.email.recovery.none')}</Text>
          <Button variant="light" onClick={() => setStep('details')} data-testid="add-recovery-email">
            {t('account.email.recovery.add')}
          </Button>
        </Group>
      )}
      <RecoveryEmailDialog
        opened={step === 'details'}
        onClose={close}
        primaryEmail={user?.email ?? ''}
        onSubmit={async (body) => {
          await request.mutateAsync(body);
          codeSentTo(body.email);
        }}
      />
      <OtpDialog
        opened={step === 'code'}
        onClose={close}
        title={t('account.email.recovery.codeTitle')}
        email={pendingEmail}
        onSubmit={async (code) => {
          await verify.mutateAsync(code);
          close();
          notify('success', t('account.email.recovery.verifiedToast'));
        }}
      />
      <ConfirmDialog
        opened={step === 'remove'}
        onClose={close}
        title={t('account.email.recovery.removeTitle')}
        confirmLabel={t('account.email.recovery.remove')}
        danger
        onConfirm={async () => {
          await remove.mutateAsync();
          notify('success', t('account.email.recovery.removed'));
        }}
      >
        {t('account.email.recovery.removeBody', { email: recovery ?? '' })}
      </ConfirmDialog>
    </Section>
  );
}

const educationSchema = z.object({ email: emailField });

/** The education address: a link is mailed to it; /confirmation/education-email/:token confirms it. */
function EducationEmailSection() {
  const { t } = useTranslation();
  const message = useFieldMessage();
  const { user } = useAuthState();
  const request = useRequestEducationEmail();
  const [sentTo, setSentTo] = useState<string | null>(null);
  const [failure, setFailure] = useState<ApiError | null>(null);
  const form = useForm<{ email: string }>({ resolver: zodResolver(educationSchema), defaultValues: { email: '' } });

  const submit = form.handleSubmit(async ({ email }) => {
    setFailure(null);
    const address = email.trim().toLowerCase();
    try {
      await request.mutateAsync(address);
      setSentTo(address);
      form.reset();
    } catch (error) {
      setFailure(placeServerErrors<{ email: string }>(error, form.setError, ['email'], { 'auth.email_exists': 'email', 'auth.email_not_valid': 'email' }));
    }
  });

  return (
    <Section title={t('account.email.education.title')} description={t('account.email.education.description')}>
      <Text size="sm" mt="xs" fw={user?.education_email ? 500 : undefined}>
        {user?.education_email ?? t('account.email.education.none')}
      </Text>
      <form noValidate onSubmit={(event) => void submit(event)}>
        <Group align="flex-start" gap="sm" wrap="wrap">
          <TextInput
            label={t('account.email.education.label')}
            type="email"
            autoComplete="email"
            {...form.register('email')}
            error={message(form.formState.errors.email?.message) ?? (failure ? errorText(failure) : undefined)}
            miw={260}
            style={{ flex: 1 }}
          />
          <Button type="submit" mt={24} loading={request.isPending}>
            {t('account.email.education.send')}
          </Button>
        </Group>
      </form>
      {sentTo && (
        <Text size="sm" c="green.8" role="status">
          {t('account.email.education.sent', { email: sentTo })}
        </Text>
      )}
    </Section>
  );
}
