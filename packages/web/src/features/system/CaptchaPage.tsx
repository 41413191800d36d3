import { useTranslation } from 'react-i18next';
import { PageHeader } from '../../components/PageHeader';

/** /captcha: the stand-alone security check some flows send visitors through. */
export function CaptchaPage() {
  const { t } = useTranslation();
  return <PageHeader title={t('system.captcha.title')} description={t('system.captcha.description')} />;
}
