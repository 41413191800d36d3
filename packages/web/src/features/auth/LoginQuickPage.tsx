import { useTranslation } from 'react-i18next';
import { PageHeader } from '../../components/PageHeader';
import { BackToLogin } from './BackToLogin';

/** /login/quick: sign-in with an emailed one-time code. */
export function LoginQuickPage() {
  const { t } = useTranslation();
  return (
    <>
      <PageHeader title={t('auth.loginQuick.title')} description={t('auth.loginQuick.description')} />
      <BackToLogin />
    </>
  );
}
