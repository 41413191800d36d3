import { useTranslation } from 'react-i18next';
import { PageHeader } from '../../components/PageHeader';

/** /confirmation/education-email/:token?: education email confirmation links. */
export function EducationEmailConfirmationPage() {
  const { t } = useTranslation();
  return <PageHeader title={t('register.confirmationEducationEmail.title')} description={t('register.confirmationEducationEmail.description')} />;
}
