import { useState } from 'react';
import { Stack } from '@mantine/core';
import { useLocation } from 'react-router';
import { useTranslation } from 'react-i18next';
import { PageHeader } from '../../../components/PageHeader';
import { SocialButtons } from '../../../components/SocialButtons';
import { useCurrentService } from '../../../lib/service';
import { PasskeySignUpButton, PasskeySignUpForm } from './PasskeySignUpForm';
import { RegisterForm } from './RegisterForm';
import { SignupOffer } from './SignupOffer';

/** /register: sign-up, with the copy of the product the visitor came from. */
export function RegisterPage() {
  const { t } = useTranslation();
  const service = useCurrentService();
  const { search } = useLocation();
  const [withPasskey, setWithPasskey] = useState(false);
  return (
    <Stack gap="lg">
      <div>
        <PageHeader title={t('auth.register.index.title')} />
        <SignupOffer service={service} />
      </div>
      {withPasskey ? (
        <PasskeySignUpForm onUsePassword={() => setWithPasskey(false)} />
      ) : (
        <>
          <PasskeySignUpButton onClick={() => setWithPasskey(true)} />
          <SocialButtons search={search} />
          <RegisterForm />
        </>
      )}
    </Stack>
  );
}
