import { useTranslation } from 'react-i18next';
import { NotAvailableYet } from '../../components/NotAvailableYet';
import { PageHeader } from '../../components/PageHeader';

/** Not built yet (shows NotAvailableYet). /create-user: finishes a sign-up started with a social account. */
export function CreateUserPage() {
  const { t } = useTranslation();
  return (
    <>
      <PageHeader title={t('register.createUser.title')} description={t('register.createUser.description')} />
      <NotAvailableYet />
    </>
  );
}
