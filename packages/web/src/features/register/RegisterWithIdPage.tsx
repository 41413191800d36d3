import { useTranslation } from 'react-i18next';
import { PageHeader } from '../../components/PageHeader';

/** /register/:id: sign-up from an invitation or a plan link. */
export function RegisterWithIdPage() {
  const { t } = useTranslation();
  return <PageHeader title={t('register.withId.title')} description={t('register.withId.description')} />;
}
