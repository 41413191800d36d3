import { useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { paths } from '@portal/contracts';
import { InvitationResult, invitationResultTexts } from '../../components/InvitationResult';
import { DoneWithLink } from '../../components/DoneWithLink';
import { acceptInvitation, previewInvitation } from './api';

/**
 * /confirmation/invitation/:token?: the result screen of an organization invitation for a
 * person with an account. Sign in first, then accept: joined, or why not (expired, withdrawn,
 * used, sent to another email).
 */
export function InvitationPage() {
  const { t } = useTranslation();
  const { token } = useParams();
  return (
    <InvitationResult
      token={token}
      texts={invitationResultTexts(t, 'organizationInvitation', 'organizations')}
      preview={previewInvitation}
      accept={acceptInvitation}
      summary={(preview) =>
        t('auth.register.organizationInvitation.summary', { organization: preview.organization_name, email: preview.email, role: t(`auth.register.organizationInvitation.roles.${preview.role}`) })
      }
      done={(joined) => (
        <DoneWithLink message={t('auth.register.organizationInvitation.joined', { organization: joined.organization_name })} testId="invitation-joined" to={paths.organization} label={t('auth.register.organizationInvitation.open')} />
      )}
    />
  );
}
