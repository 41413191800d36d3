import { useTranslation } from 'react-i18next';
import { NotAvailableYet } from '../../components/NotAvailableYet';
import { PageHeader } from '../../components/PageHeader';
import { BackToLogin } from './BackToLogin';

/** Not built yet (shows NotAvailableYet). /callback-app: hands a finished sign-in back to the desktop or mobile app. */
export function CallbackAppPage() {
  const { t } = useTranslation();
  return (
    <>
      <PageHeader title={t('auth.callbackApp.title')} description={t('auth.callbackApp.description')} />
      <NotAvailableYet />
      <BackToLogin />
    </>
  );
}
