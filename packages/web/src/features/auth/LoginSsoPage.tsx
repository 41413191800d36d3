import { useTranslation } from 'react-i18next';
import { PageHeader } from '../../components/PageHeader';
import { BackToLogin } from './BackToLogin';

/** /login/sso: sign-in through the company's identity provider. */
export function LoginSsoPage() {
  const { t } = useTranslation();
  return (
    <>
      <PageHeader title={t('auth.loginSso.title')} description={t('auth.loginSso.description')} />
      <BackToLogin />
    </>
  );
}
