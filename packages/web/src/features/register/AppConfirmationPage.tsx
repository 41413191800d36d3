import { useTranslation } from 'react-i18next';
import { PageHeader } from '../../components/PageHeader';

/** /confirmation/app/:token?: AppSumo license activation links. */
export function AppConfirmationPage() {
  const { t } = useTranslation();
  return <PageHeader title={t('register.confirmationApp.title')} description={t('register.confirmationApp.description')} />;
}
