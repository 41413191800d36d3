import { useTranslation } from 'react-i18next';
import { PageHeader } from '../../components/PageHeader';
import { BackToLogin } from './BackToLogin';

/** /callback: where social providers return after sign-in. */
export function CallbackPage() {
  const { t } = useTranslation();
  return (
    <>
      <PageHeader title={t('auth.callback.title')} description={t('auth.callback.description')} />
      <BackToLogin />
    </>
  );
}
