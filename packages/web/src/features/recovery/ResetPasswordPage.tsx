import { useTranslation } from 'react-i18next';
import { RESET_LINK_TTL_SECONDS } from '@portal/contracts';
import { PageHeader } from '../../components/PageHeader';

/** /reset-pwd/:token?: the link from the reset email. */
export function ResetPasswordPage() {
  const { t } = useTranslation();
  return (
    <PageHeader
      title={t('recovery.resetPassword.title')}
      description={t('recovery.resetPassword.description', { minutes: RESET_LINK_TTL_SECONDS / 60 })}
    />
  );
}
