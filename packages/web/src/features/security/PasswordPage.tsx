import { useTranslation } from 'react-i18next';
import { PageHeader } from '../../components/PageHeader';

/** /security/password: change the sign-in password. */
export function PasswordPage() {
  const { t } = useTranslation();
  return <PageHeader title={t('security.password.title')} description={t('security.password.description')} />;
}
