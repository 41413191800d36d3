import { useTranslation } from 'react-i18next';
import { PageHeader } from '../../components/PageHeader';

/** /register/verifying-email: after sign-up, until the activation link is opened. */
export function VerifyingEmailPage() {
  const { t } = useTranslation();
  return <PageHeader title={t('register.verifyingEmail.title')} description={t('register.verifyingEmail.description')} />;
}
