import { useTranslation } from 'react-i18next';
import { PageHeader } from '../../components/PageHeader';

/** /confirmation/:token?: account (and moderator invitation) activation links. */
export function ConfirmationPage() {
  const { t } = useTranslation();
  return <PageHeader title={t('register.confirmation.title')} description={t('register.confirmation.description')} />;
}
