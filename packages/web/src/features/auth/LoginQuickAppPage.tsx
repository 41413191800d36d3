import { useTranslation } from 'react-i18next';
import { PageHeader } from '../../components/PageHeader';
import { BackToLogin } from './BackToLogin';

/** /login/quick-app: approve a desktop or mobile app's sign-in. */
export function LoginQuickAppPage() {
  const { t } = useTranslation();
  return (
    <>
      <PageHeader title={t('auth.loginQuickApp.title')} description={t('auth.loginQuickApp.description')} />
      <BackToLogin />
    </>
  );
}
