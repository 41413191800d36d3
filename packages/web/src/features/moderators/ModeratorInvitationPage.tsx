import { useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { paths } from '@portal/contracts';
import { InvitationResult, invitationResultTexts } from '../../components/InvitationResult';
import { DoneWithLink } from '../../components/DoneWithLink';
import { acceptModeratorInvitation, previewModeratorInvitation } from './api';

/**
 * /confirmation/moderator/:token?: the spec's "moderator invitation activation" result screen. A
 * product invited this email to moderate one of its websites; signed in as that email, the
 * person accepts once and receives the website's security-analysis notifications.
 */
export function ModeratorInvitationPage() {
  const { t } = useTranslation();
  const { token } = useParams();
  return (
    <InvitationResult
      token={token}
      texts={invitationResultTexts(t, 'moderatorInvitation', 'moderators')}
      preview={previewModeratorInvitation}
      accept={acceptModeratorInvitation}
      summary={(preview) => t('auth.register.moderatorInvitation.summary', { product: preview.product, email: preview.email, website: preview.website_name })}
      done={(accepted) => (
        <DoneWithLink message={t('auth.register.moderatorInvitation.accepted', { website: accepted.website_name })} testId="moderator-accepted" to={paths.home} label={t('auth.register.moderatorInvitation.open')} />
      )}
    />
  );
}
