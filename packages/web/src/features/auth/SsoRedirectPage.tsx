import { useTranslation } from 'react-i18next';
import { NotAvailableYet } from '../../components/NotAvailableYet';
import { PageHeader } from '../../components/PageHeader';
import { BackToLogin } from './BackToLogin';

/** Not built yet (shows NotAvailableYet). /sso/redirect: on the way to a company's identity provider. */
export function SsoRedirectPage() {
  const { t } = useTranslation();
  return (
    <>
      <PageHeader title={t('auth.ssoRedirect.title')} description={t('auth.ssoRedirect.description')} />
      <NotAvailableYet />
      <BackToLogin />
    </>
  );
}
