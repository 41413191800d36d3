import { useTranslation } from 'react-i18next';
import { PageHeader } from '../../components/PageHeader';
import { BackToLogin } from './BackToLogin';

/** /callback-app: hands a finished sign-in back to the desktop or mobile app. */
export function CallbackAppPage() {
  const { t } = useTranslation();
  return (
    <>
      <PageHeader title={t('auth.callbackApp.title')} description={t('auth.callbackApp.description')} />
      <BackToLogin />
    </>
  );
}
