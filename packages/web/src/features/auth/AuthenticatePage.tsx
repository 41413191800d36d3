import { useTranslation } from 'react-i18next';
import { NotAvailableYet } from '../../components/NotAvailableYet';
import { PageHeader } from '../../components/PageHeader';
import { useCurrentService } from '../../lib/service';

/** Not built yet (shows NotAvailableYet). /authenticate: passes a signed-in session on to the service named by the entry. */
export function AuthenticatePage() {
  const { t } = useTranslation();
  const service = useCurrentService().entry.name;
  return (
    <>
      <PageHeader title={t('auth.authenticate.title', { service })} description={t('auth.authenticate.description', { service })} />
      <NotAvailableYet />
    </>
  );
}
