import { useTranslation } from 'react-i18next';
import { NotAvailableYet } from '../../components/NotAvailableYet';
import { PageHeader } from '../../components/PageHeader';
import { BackToLogin } from './BackToLogin';

/** Not built yet (shows NotAvailableYet). /login/sso: sign-in through the company's identity provider. */
export function LoginSsoPage() {
  const { t } = useTranslation();
  return (
    <>
      <PageHeader title={t('auth.loginSso.title')} description={t('auth.loginSso.description')} />
      <NotAvailableYet />
      <BackToLogin />
    </>
  );
}
