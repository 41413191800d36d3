import { useTranslation } from 'react-i18next';
import { PageHeader } from '../../components/PageHeader';

/** /create-user: finishes a sign-up started with a social account. */
export function CreateUserPage() {
  const { t } = useTranslation();
  return <PageHeader title={t('register.createUser.title')} description={t('register.createUser.description')} />;
}
