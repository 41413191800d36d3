import '@mantine/core/styles/Alert.css';
import '@mantine/core/styles/Button.css';
import '@mantine/core/styles/Input.css';
import '@mantine/core/styles/NumberInput.css';
import { useRef, useState, type FormEvent } from 'react';
import { Alert, Button, NumberInput, Stack, TextInput } from '@mantine/core';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { BUSINESS_TRIAL_MAX_MEMBERS, paths, TRIAL_DAYS } from '@portal/contracts';
import { CaptchaError, type CaptchaHandle } from '../../components/captcha/types';
import { PageHeader } from '../../components/PageHeader';
import { ApiError, errorText, fieldErrors, fieldErrorText } from '../../lib/api';
import { useAuthState } from '../../lib/session';
import { startBusinessTrial } from './api';
import { isCaptchaRefusal, SignUpCaptcha } from './SignUpFields';

interface Values {
  company: string;
  full_name: string;
  phone: string;
  members: number;
}

/**
 * /register/locker-enterprise-trial (signed in: the route sends others to sign in and back): the
 * signed-in person starts their company's 14-day business trial as its owner, with their own email.
 */
export function LockerEnterpriseTrialPage() {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const { user } = useAuthState();
  const email = user?.email ?? '';
  const [values, setValues] = useState<Values>({ company: '', full_name: user?.full_name ?? '', phone: '', members: 5 });
  const [errors, setErrors] = useState<Partial<Record<keyof Values, string>>>({});
  const [failure, setFailure] = useState<ApiError | null>(null);
  const [captchaFailure, setCaptchaFailure] = useState<CaptchaError | ApiError | null>(null);
  const captcha = useRef<CaptchaHandle>(null);
  const [pending, setPending] = useState(false);
  const set = <K extends keyof Values>(field: K, value: Values[K]) => setValues((current) => ({ ...current, [field]: value }));

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setFailure(null);
    setCaptchaFailure(null);
    const blank: Partial<Record<keyof Values, string>> = {};
    for (const field of ['company', 'full_name'] as const) if (!values[field].trim()) blank[field] = t('validation.blank');
    setErrors(blank);
    if (Object.keys(blank).length) return;
    setPending(true);
    try {
      const answer = await captcha.current?.token();
      const started = await startBusinessTrial({
        company: values.company,
        full_name: values.full_name,
        email,
        ...(values.phone.trim() ? { phone: values.phone.trim() } : {}),
        members: values.members,
        language: i18n.language === 'vi' ? 'vi' : 'en',
        captcha: answer,
      });
      await navigate(paths.registerLockerEnterpriseTrialSuccess, { state: { email: started.email } });
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
    <Stack gap="md">
      <PageHeader title={t('register.lockerEnterpriseTrial.title')} description={t('register.lockerEnterpriseTrial.description', { days: TRIAL_DAYS })} />
      <form onSubmit={submit} noValidate data-testid="business-trial-form">
        <Stack gap="sm">
          {failure && (
            <Alert color="red" role="alert" data-testid="business-trial-error" data-code={failure.code}>
              {errorText(failure)}
            </Alert>
          )}
          <TextInput label={t('register.lockerEnterpriseTrial.company')} value={values.company} onChange={(e) => set('company', e.currentTarget.value)} error={errors.company} autoComplete="organization" />
          <TextInput label={t('register.lockerEnterpriseTrial.fullName')} value={values.full_name} onChange={(e) => set('full_name', e.currentTarget.value)} error={errors.full_name} autoComplete="name" />
          {/* The trial is the signed-in account's: its email, not one to type. */}
          <TextInput label={t('register.lockerEnterpriseTrial.email')} type="email" value={email} readOnly autoComplete="email" />
          <TextInput label={t('register.lockerEnterpriseTrial.phone')} value={values.phone} onChange={(e) => set('phone', e.currentTarget.value)} error={errors.phone} autoComplete="tel" inputMode="numeric" />
          <NumberInput label={t('register.lockerEnterpriseTrial.members')} value={values.members} onChange={(value) => set('members', typeof value === 'number' ? value : 1)} min={1} max={BUSINESS_TRIAL_MAX_MEMBERS} error={errors.members} />
          <SignUpCaptcha captchaRef={captcha} failure={captchaFailure} onAnswer={() => setCaptchaFailure(null)} />
          <Button type="submit" loading={pending} data-testid="business-trial-submit">
            {t('register.lockerEnterpriseTrial.submit')}
          </Button>
        </Stack>
      </form>
    </Stack>
  );
}
