import './styles';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Button, Modal, Stack, Text, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { mfaEndpoints, paths, securityEndpoints } from '@portal/contracts';
import { ApiError, call, setReauthPrompt } from '../../lib/api';
import { logout } from '../../lib/session';
import { DialogActions } from './DialogActions';

type Proof = 'password' | 'code' | 'none';

/**
 * The re-authentication dialog of the signed-in shell: a sensitive change (adding a passkey,
 * an authenticator app or an API key, a first password, turning two-step off, new recovery
 * codes, changing the email) answered `auth.reauth_required`, so
 * the person proves it is them again (the password, or a second-step code when the account
 * has no password) and the change is sent again (lib/api.ts setReauthPrompt). An account
 * with neither signs in again.
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
  const settle = useRef<((done: boolean) => void) | null>(null);

  useEffect(() => {
    setReauthPrompt(
      () =>
        new Promise<boolean>((resolve) => {
          settle.current?.(false);
          settle.current = resolve;
          setValue('');
          setFailure(null);
          setSent(false);
          setOpened(true);
          call(securityEndpoints.overview, undefined, { handle: 'all' })
            .then((overview) => {
              setMethod(overview.two_factor.method);
              setProof(overview.has_password ? 'password' : overview.two_factor.method ? 'code' : 'none');
            })
            .catch(() => setProof('password'));
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

  const sendCode = async () => {
    try {
      await call(mfaEndpoints.emailSend, undefined, { handle: [400, 429] });
      setSent(true);
    } catch (error) {
      if (error instanceof ApiError) setFailure(error);
    }
  };

  return (
    <Modal opened={opened} onClose={() => close(false)} title={t('reauth.title')} centered closeButtonProps={{ 'aria-label': t('common.close') }}>
      {proof === 'none' ? (
        <Stack gap="md">
          <Text size="sm">{t('reauth.bodyNone')}</Text>
          <Button
            onClick={() => {
              close(false);
              void logout().then(() => window.location.assign(paths.login));
            }}
          >
            {t('reauth.signInAgain')}
          </Button>
        </Stack>
      ) : (
        <form noValidate onSubmit={(event) => void submit(event)} data-testid="reauth-dialog">
          <Stack gap="md">
            <Text size="sm">{t(proof === 'password' ? 'reauth.body' : 'reauth.bodyCode')}</Text>
            <TextInput
              label={t(proof === 'password' ? 'reauth.passwordLabel' : 'reauth.codeLabel')}
              type={proof === 'password' ? 'password' : 'text'}
              autoComplete={proof === 'password' ? 'current-password' : 'one-time-code'}
              autoFocus
              value={value}
              onChange={(event) => setValue(event.currentTarget.value)}
            />
            {proof === 'code' && method === 'email' && (
              <Button variant="subtle" size="xs" px={0} onClick={() => void sendCode()} disabled={sent}>
                {sent ? t('reauth.codeSent') : t('reauth.sendCode')}
              </Button>
            )}
            <DialogActions failure={failure} onCancel={() => close(false)} submitLabel={t('reauth.submit')} submitting={submitting} />
          </Stack>
        </form>
      )}
    </Modal>
  );
}
