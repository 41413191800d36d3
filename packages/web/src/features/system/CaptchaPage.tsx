import '@mantine/core/styles/Button.css';
import '@mantine/core/styles/Input.css';
import { useRef, useState } from 'react';
import { Button, CopyButton, Stack, Text, Textarea } from '@mantine/core';
import { useLocation } from 'react-router';
import { useTranslation } from 'react-i18next';
import { safeRedirect } from '@portal/contracts';
import { CaptchaField } from '../../components/captcha/CaptchaField';
import { CaptchaError, type CaptchaHandle } from '../../components/captcha/types';
import { PageHeader } from '../../components/PageHeader';
import { useRuntimeConfig } from '../../lib/runtime-context';

/** The message an opener receives: `{ type: 'portal:captcha', token }`. */
export const CAPTCHA_MESSAGE_TYPE = 'portal:captcha';

/**
 * The opener's origin named by `?origin=`, when it is one a sign-in may return to (this site
 * or RuntimeConfig.allowedRedirectOrigins): only then does the answer leave this window.
 */
export function captchaTargetOrigin(search: string, allowedOrigins: readonly string[], currentOrigin: string): string | null {
  const safe = safeRedirect(new URLSearchParams(search).get('origin'), allowedOrigins, currentOrigin);
  if (!safe) return null;
  return safe.startsWith('/') ? currentOrigin : new URL(safe).origin;
}

/**
 * /captcha: a stand-alone security check for apps (desktop, extensions, partner pages). It
 * opens as a window; once solved, the answer goes back to the opener by postMessage when
 * `?origin=` names an allowed origin, and is shown to copy otherwise.
 */
export function CaptchaPage() {
  const { t } = useTranslation();
  const { search } = useLocation();
  const { allowedRedirectOrigins } = useRuntimeConfig();
  const captcha = useRef<CaptchaHandle>(null);
  const [token, setToken] = useState<string | null>(null);
  const [sent, setSent] = useState(false);
  const [failure, setFailure] = useState<CaptchaError | null>(null);

  const deliver = (answer: string) => {
    setToken(answer);
    const target = captchaTargetOrigin(search, allowedRedirectOrigins, location.origin);
    const opener = window.opener as Window | null;
    if (target && opener && !opener.closed) {
      opener.postMessage({ type: CAPTCHA_MESSAGE_TYPE, token: answer }, target);
      setSent(true);
    }
  };

  const solve = async () => {
    setFailure(null);
    try {
      const answer = await captcha.current?.token();
      if (answer) deliver(answer);
    } catch (error) {
      if (error instanceof CaptchaError) setFailure(error);
      else throw error;
    }
  };

  return (
    <Stack gap="md" maw={480} mx="auto">
      <PageHeader title={t('system.captcha.title')} description={t('system.captcha.description')} />
      {!token && (
        <>
          <CaptchaField ref={captcha} action="captcha" auto="onfocus" onChange={(answer) => answer && deliver(answer)} />
          {failure && (
            <Text size="sm" c="red.7" role="alert">
              {t(failure.key)}
            </Text>
          )}
          <div>
            <Button onClick={() => void solve()}>{t('system.captcha.continue')}</Button>
          </div>
        </>
      )}
      {token && sent && (
        <Text role="status" data-testid="captcha-sent">
          {t('system.captcha.sentToApp')}
        </Text>
      )}
      {token && !sent && (
        <Stack gap="xs">
          <Text role="status">{t('system.captcha.solved')}</Text>
          <Textarea label={t('system.captcha.tokenLabel')} value={token} readOnly autosize minRows={2} maxRows={6} data-testid="captcha-token" />
          <CopyButton value={token}>
            {({ copied, copy }) => (
              <div>
                <Button variant="light" onClick={copy}>
                  {copied ? t('system.captcha.copied') : t('system.captcha.copy')}
                </Button>
              </div>
            )}
          </CopyButton>
        </Stack>
      )}
    </Stack>
  );
}
