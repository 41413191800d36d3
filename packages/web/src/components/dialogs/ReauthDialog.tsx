import './styles';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Button, getDefaultZIndex, Group, Stack, Text, TextInput } from '@mantine/core';
import { Dialog } from './Dialog';
import { useTranslation } from 'react-i18next';
import { mfaEndpoints, paths, securityEndpoints } from '@portal/contracts';
import { ApiError, call, setReauthPrompt } from '../../lib/api';
import { logout } from '../../lib/session';
import { passkeysSupported } from '../passkey/support';
import { DialogActions } from './DialogActions';
import { FailureAlert } from '../FailureAlert';

type Proof = 'password' | 'code' | 'passkey' | 'none';

/**
 * The re-authentication dialog of the signed-in shell: a sensitive change (adding a passkey,
 * an authenticator app or an API key, a first password, turning two-step off, new recovery
 * codes, changing the email) answered `auth.reauth_required`, so
 * the person proves it is them again (the password, or a second-step code when the account
 * has no password, or "Use a passkey" when the account has one and the browser can) and the
 * change is sent again (lib/api.ts setReauthPrompt). An account with none of them signs in
 * again. Adding a passkey to a two-step account asks for the second step (a code, a recovery
 * code or a passkey) instead of the password (`details.second_step` of the refusal). The
 * ceremony code loads with the first passkey prompt, not with the shell.
 */
export function ReauthDialog() {
  const { t } = useTranslation();
  const [opened, setOpened] = useState(false);
  const [proof, setProof] = useState<Proof>('password');
  const [method, setMethod] = useState<string | null>(null);
  const [value, setValue] = useState('');
  const [failure, setFailure] = useState<ApiError | null>(null);
  const [submitting, setSubmitting] = useState(false);
  const [sent, setSent] = useState(false);
  const [hasPasskey, setHasPasskey] = useState(false);
  const [passkeyProblem, setPasskeyProblem] = useState<string | null>(null);
  const [secondStep, setSecondStep] = useState(false);
  const settle = useRef<((done: boolean) => void) | null>(null);

  useEffect(() => {
    setReauthPrompt(
      (refusal) =>
        new Promise<boolean>((resolve) => {
          // Adding a passkey to a two-step account asks for the second step, never the password.
          const secondStep = refusal.details?.second_step === true;
          settle.current?.(false);
          settle.current = resolve;
          setValue('');
          setFailure(null);
          setSent(false);
          setHasPasskey(false);
          setPasskeyProblem(null);
          setSecondStep(secondStep);
          setOpened(true);
          call(securityEndpoints.overview, undefined, { handle: 'all' })
            .then((overview) => {
              const passkey = overview.passkeys > 0 && passkeysSupported();
              setMethod(overview.two_factor.method);
              setHasPasskey(passkey);
              setProof(secondStep ? 'code' : overview.has_password ? 'password' : overview.two_factor.method ? 'code' : passkey ? 'passkey' : 'none');
            })
            .catch(() => setProof(secondStep ? 'code' : 'password'));
        }),
    );
    return () => setReauthPrompt(null);
  }, []);

  const close = (done: boolean) => {
    setOpened(false);
    setValue('');
    settle.current?.(done);
    settle.current = null;
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!value.trim()) return;
    setSubmitting(true);
    setFailure(null);
    try {
      const body = proof === 'password' ? { password: value } : /^\d{6}$/.test(value.trim()) ? { code: value.trim() } : { recovery_code: value.trim().toUpperCase() };
      await call(securityEndpoints.reauthenticate, { body }, { handle: [400, 429] });
      close(true);
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      setFailure(error);
    } finally {
      setSubmitting(false);
    }
  };

  const provePasskey = async () => {
    setSubmitting(true);
    setFailure(null);
    setPasskeyProblem(null);
    try {
      const options = await call(securityEndpoints.reauthPasskeyOptions, undefined, { handle: 'all' });
      const { runAuthentication } = await import('../passkey/ceremony');
      const response = await runAuthentication(options);
      await call(securityEndpoints.reauthenticate, { body: { passkey: { ...response } } }, { handle: [400, 404, 429] });
      close(true);
    } catch (error) {
      const { passkeyErrorText } = await import('../passkey/passkey-errors');
      // A closed prompt is not a failure: say so in this dialog's words (the shared text speaks of creating one).
      setPasskeyProblem((error as { problem?: unknown } | null)?.problem === 'cancelled' ? t('security.reauth.passkeyCancelled') : passkeyErrorText(error, 'auth'));
    } finally {
      setSubmitting(false);
    }
  };

  const passkeyButton = hasPasskey && (
    <>
      <Button variant="light" onClick={() => void provePasskey()} loading={submitting} data-testid="reauth-passkey">
        {t('security.reauth.usePasskey')}
      </Button>
      <FailureAlert failure={passkeyProblem} />
    </>
  );

  const sendCode = async () => {
    try {
      await call(mfaEndpoints.emailSend, undefined, { handle: [400, 429] });
      setSent(true);
    } catch (error) {
      if (error instanceof ApiError) setFailure(error);
    }
  };

  return (
    // Above the dialog whose request asked for it (a transfer's code dialog, say), opened after this one mounted.
    <Dialog opened={opened} onClose={() => close(false)} title={t('security.reauth.title')} zIndex={getDefaultZIndex('modal') + 1}>
      {proof === 'passkey' ? (
        <Stack gap="md">
          <Text size="sm">{t('security.reauth.bodyPasskey')}</Text>
          {passkeyButton}
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={() => close(false)}>
              {t('common.cancel')}
            </Button>
          </Group>
        </Stack>
      ) : proof === 'none' ? (
        <Stack gap="md">
          <Text size="sm">{t('security.reauth.bodyNone')}</Text>
          <Button
            onClick={() => {
              close(false);
              void logout().then(() => window.location.assign(paths.login));
            }}
          >
            {t('security.reauth.signInAgain')}
          </Button>
        </Stack>
      ) : (
        <form noValidate onSubmit={(event) => void submit(event)} data-testid="reauth-dialog">
          <Stack gap="md">
            <Text size="sm">{t(proof === 'password' ? 'security.reauth.body' : secondStep ? 'security.reauth.bodySecondStep' : 'security.reauth.bodyCode')}</Text>
            <TextInput
              label={t(proof === 'password' ? 'security.reauth.passwordLabel' : 'security.reauth.codeLabel')}
              type={proof === 'password' ? 'password' : 'text'}
              autoComplete={proof === 'password' ? 'current-password' : 'one-time-code'}
              autoFocus
              value={value}
              onChange={(event) => setValue(event.currentTarget.value)}
            />
            {proof === 'code' && method === 'email' && (
              <Button variant="subtle" size="xs" px={0} onClick={() => void sendCode()} disabled={sent}>
                {sent ? t('security.reauth.codeSent') : t('security.reauth.sendCode')}
              </Button>
            )}
            {passkeyButton}
            <DialogActions failure={failure} onCancel={() => close(false)} submitLabel={t('security.reauth.submit')} submitting={submitting} />
          </Stack>
        </form>
      )}
    </Dialog>
  );
}
