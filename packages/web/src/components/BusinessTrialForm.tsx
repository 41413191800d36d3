import '@mantine/core/styles/Alert.css';
import '@mantine/core/styles/Button.css';
import '@mantine/core/styles/Input.css';
import '@mantine/core/styles/NumberInput.css';
import { useRef, useState, type FormEvent } from 'react';
import { Alert, Button, NumberInput, Stack, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { ALPHANUMERIC_PATTERN, BUSINESS_TRIAL_MAX_MEMBERS, billingEndpoints, profileMessages, type EndpointInput, type EndpointResponse } from '@portal/contracts';
import { ApiError, call, errorText, fieldErrors, fieldErrorText } from '../lib/api';
import { useAuthState } from '../lib/session';
import { CaptchaError, isCaptchaRefusal, type CaptchaHandle } from './captcha/types';
import { SignUpCaptcha } from './captcha/SignUpCaptcha';

interface Values {
  company: string;
  full_name: string;
  phone: string;
  members: number;
}

type Started = EndpointResponse<typeof billingEndpoints.businessTrial>;

/** 7013, 7014, 7015, a refused address (403) and field errors are the form's own message, shown in it. */
const startBusinessTrial = (body: EndpointInput<typeof billingEndpoints.businessTrial>['body']) =>
  call(billingEndpoints.businessTrial, { body }, { handle: [400, 403, 429] });

/**
 * The business trial's form, for the signed-in person: their company starts a 14-day trial
 * with them as its owner, under their own account's email (the server refuses any other).
 * Shared by /register/locker-enterprise-trial and /organization (an account in no organization
 * starts one there); each page says what comes next through `onStarted`.
 */
export function BusinessTrialForm({ onStarted }: { onStarted(started: Started): Promise<void> | void }) {
  const { t, i18n } = useTranslation();
  const { user } = useAuthState();
  const email = user?.email ?? '';
  const [values, setValues] = useState<Values>({ company: '', full_name: user?.full_name ?? '', phone: '', members: 5 });
  const [errors, setErrors] = useState<Partial<Record<keyof Values, string>>>({});
  const [failure, setFailure] = useState<ApiError | null>(null);
  const [captchaFailure, setCaptchaFailure] = useState<CaptchaError | ApiError | null>(null);
  const captcha = useRef<CaptchaHandle>(null);
  const [pending, setPending] = useState(false);
  const set = <K extends keyof Values>(field: K, value: Values[K]) => setValues((current) => ({ ...current, [field]: value }));

  /** The checks the server makes, said before asking it (the spec's validation rules: company alphanumeric only, phone numeric only). */
  const check = (): boolean => {
    const found: Partial<Record<keyof Values, string>> = {};
    for (const field of ['company', 'full_name'] as const) if (!values[field].trim()) found[field] = t('validation.blank');
    if (!found.company && !ALPHANUMERIC_PATTERN.test(values.company.trim())) found.company = t('account.validation.company', { defaultValue: profileMessages.company });
    if (!/^\d*$/.test(values.phone.trim())) found.phone = t('account.validation.phone', { defaultValue: profileMessages.phone });
    setErrors(found);
    return Object.keys(found).length === 0;
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setFailure(null);
    setCaptchaFailure(null);
    if (pending || !check()) return;
    setPending(true);
    try {
      const answer = await captcha.current?.token();
      const started = await startBusinessTrial({
        company: values.company.trim(),
        full_name: values.full_name,
        email,
        ...(values.phone.trim() ? { phone: values.phone.trim() } : {}),
        members: values.members,
        language: i18n.language === 'vi' ? 'vi' : 'en',
        captcha: answer,
      });
      await onStarted(started);
    } catch (error) {
      // A captcha answer is single use: whatever happened, the next try gets a fresh one.
      captcha.current?.reset();
      if (error instanceof CaptchaError) {
        setCaptchaFailure(error);
        return;
      }
      if (!(error instanceof ApiError)) throw error;
      if (isCaptchaRefusal(error)) {
        setCaptchaFailure(error);
        return;
      }
      const fields = fieldErrors(error);
      if (Object.keys(fields).length) setErrors(Object.fromEntries(Object.entries(fields).map(([name, field]) => [name, fieldErrorText(field)])));
      else setFailure(error);
    } finally {
      setPending(false);
    }
  };

  return (
    <form onSubmit={(event) => void submit(event)} noValidate data-testid="business-trial-form">
      <Stack gap="sm">
        {failure && (
          <Alert color="red" role="alert" data-testid="business-trial-error" data-code={failure.code}>
            {errorText(failure)}
          </Alert>
        )}
        <TextInput label={t('auth.register.lockerEnterpriseTrial.company')} value={values.company} onChange={(e) => set('company', e.currentTarget.value)} error={errors.company} autoComplete="organization" />
        <TextInput label={t('auth.register.lockerEnterpriseTrial.fullName')} value={values.full_name} onChange={(e) => set('full_name', e.currentTarget.value)} error={errors.full_name} autoComplete="name" />
        {/* The trial is the signed-in account's: its email, not one to type. */}
        <TextInput label={t('auth.register.lockerEnterpriseTrial.email')} type="email" value={email} readOnly autoComplete="email" />
        <TextInput label={t('auth.register.lockerEnterpriseTrial.phone')} value={values.phone} onChange={(e) => set('phone', e.currentTarget.value)} error={errors.phone} autoComplete="tel" inputMode="numeric" />
        <NumberInput label={t('auth.register.lockerEnterpriseTrial.members')} value={values.members} onChange={(value) => set('members', typeof value === 'number' ? value : 1)} min={1} max={BUSINESS_TRIAL_MAX_MEMBERS} error={errors.members} />
        <SignUpCaptcha captchaRef={captcha} failure={captchaFailure} onAnswer={() => setCaptchaFailure(null)} />
        <Button type="submit" loading={pending} data-testid="business-trial-submit">
          {t('auth.register.lockerEnterpriseTrial.submit')}
        </Button>
      </Stack>
    </form>
  );
}
