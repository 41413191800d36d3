import { useTranslation } from 'react-i18next';
import { ErrorView } from '../../components/ErrorView';

/** The catch-all route: any path no other route matches. */
export function NotFoundPage() {
  const { t } = useTranslation();
  return <ErrorView status={404} message={t('errors.page_not_found')} />;
}
