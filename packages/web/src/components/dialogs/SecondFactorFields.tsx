import './styles';
import { Anchor, PasswordInput, Stack, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useController, useWatch, type Control, type FieldValues, type Path } from 'react-hook-form';
import { mfaEndpoints, type TwoFactorMethod } from '@portal/contracts';
import { call } from '../../lib/api';
import { useFieldMessage } from './form-errors';
import { OtpInput } from '../form/OtpInput';
import { SendCodeButton, useSendCode } from '../form/SendCodeButton';
import type { SecondFactorValues } from './second-factor';

interface SecondFactorFieldsProps<Values extends SecondFactorValues & FieldValues> {
  control: Control<Values>;
  /** The account's two-step method (user.two_factor_method); none: the password alone. */
  method: TwoFactorMethod | null | undefined;
}

/** POST /sso/me/2fa/email/send: mails a current code to an account whose second factor is email. */
const sendEmailCode = () => call(mfaEndpoints.emailSend);

/** The password field and, when two-step verification is on, the code (or a recovery code). */
export function SecondFactorFields<Values extends SecondFactorValues & FieldValues>({ control, method }: SecondFactorFieldsProps<Values>) {
  const { t } = useTranslation();
  const message = useFieldMessage();
  const name = (field: keyof SecondFactorValues) => field as Path<Values>;
  const password = useController({ control, name: name('password') });
  const factor = useController({ control, name: name('factor') });
  const code = useController({ control, name: name('code') });
  const recovery = useController({ control, name: name('recovery_code') });
  const usingRecovery = useWatch({ control, name: name('factor') }) === 'recovery';
  const mailed = useSendCode(sendEmailCode);

  return (
    <Stack gap="sm">
      <PasswordInput
        label={t('mfa.secondFactor.password')}
        autoComplete="current-password"
        visibilityToggleButtonProps={{ 'aria-label': t('form.showPassword') }}
        {...password.field}
        value={String(password.field.value ?? '')}
        error={message(password.fieldState.error?.message)}
        data-testid="confirm-password"
      />
      {method && !usingRecovery && (
        <Stack gap={4}>
          <OtpInput
            label={t('mfa.secondFactor.code')}
            description={t(method === 'totp' ? 'mfa.secondFactor.codeHintTotp' : 'mfa.secondFactor.codeHintEmail')}
            value={String(code.field.value ?? '')}
            onChange={code.field.onChange}
            error={message(code.fieldState.error?.message)}
            name="code"
          />
          {method === 'email' && <SendCodeButton code={mailed} label={t('mfa.secondFactor.sendCode')} sentNote={t('mfa.secondFactor.codeSent')} />}
        </Stack>
      )}
      {method && usingRecovery && (
        <TextInput
          label={t('mfa.secondFactor.recoveryCode')}
          autoComplete="off"
          placeholder="XXXXX-XXXXX"
          {...recovery.field}
          value={String(recovery.field.value ?? '')}
          error={message(recovery.fieldState.error?.message)}
        />
      )}
      {method && (
        <Anchor component="button" type="button" size="sm" onClick={() => factor.field.onChange(usingRecovery ? 'code' : 'recovery')}>
          {t(usingRecovery ? 'mfa.secondFactor.useCode' : 'mfa.secondFactor.useRecoveryCode')}
        </Anchor>
      )}
    </Stack>
  );
}
