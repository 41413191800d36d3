import type { Ref } from 'react';
import { Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { errorText, type ApiError } from '../../lib/api';
import { CaptchaField } from './CaptchaField';
import { CaptchaError, type CaptchaHandle } from './types';

/** The sign-up captcha (the server asks for it on every way to sign up), with its failure under it. */
export function SignUpCaptcha({ captchaRef, failure, onAnswer }: { captchaRef: Ref<CaptchaHandle>; failure: CaptchaError | ApiError | null; onAnswer(): void }) {
  const { t } = useTranslation();
  return (
    <Stack gap={4}>
      <Text size="sm" fw={500}>
        {t('auth.register.form.captchaLabel')}
      </Text>
      <CaptchaField ref={captchaRef} action="signup" auto="onfocus" onChange={(answer) => answer && onAnswer()} />
      {failure && (
        <Text size="xs" c="red.7" role="alert">
          {failure instanceof CaptchaError ? t(failure.key) : errorText(failure)}
        </Text>
      )}
    </Stack>
  );
}
