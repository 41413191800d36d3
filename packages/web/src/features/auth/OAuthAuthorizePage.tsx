import { useTranslation } from 'react-i18next';
import { PageHeader } from '../../components/PageHeader';

/** /o/authorize: the consent step of the OAuth / OpenID Connect provider. */
export function OAuthAuthorizePage() {
  const { t } = useTranslation();
  return <PageHeader title={t('auth.oauthAuthorize.title')} description={t('auth.oauthAuthorize.description')} />;
}
