import { useTranslation } from 'react-i18next';
import { PageHeader } from '../../components/PageHeader';
import { BackToLogin } from './BackToLogin';

/** /login/password: the password step after the identifier. */
export function LoginPasswordPage() {
  const { t } = useTranslation();
  return (
    <>
      <PageHeader title={t('auth.loginPassword.title')} description={t('auth.loginPassword.description')} />
      <BackToLogin />
    </>
  );
}
