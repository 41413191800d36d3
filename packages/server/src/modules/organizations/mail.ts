import { INVITATION_VALID_DAYS, type OrganizationRole } from '@portal/contracts';
import { defineMail } from '../../platform/mail';

const roleWords = {
  en: { owner: 'an owner', admin: 'an admin', member: 'a member' },
  vi: { owner: 'chủ sở hữu', admin: 'quản trị viên', member: 'thành viên' },
} as const;

interface InvitationVars {
  organization: string;
  inviter: string;
  role: OrganizationRole;
  link: string;
}

/** An invitation to join an organization: the link signs up (no account yet) or opens the result screen. */
export const invitationMail = defineMail<InvitationVars>({
  en: ({ name, organization, inviter, role, link }, brand, { greeting }) => ({
    subject: `${inviter} invited you to join ${organization} on ${brand}`,
    heading: `Join ${organization}`,
    blocks: [
      greeting(name),
      { kind: 'p', text: `${inviter} invited you to join the organization ${organization} on ${brand} as ${roleWords.en[role]}.` },
      { kind: 'button', label: 'Accept the invitation', url: link },
      { kind: 'p', text: `The invitation is valid for ${INVITATION_VALID_DAYS} days and can be used once.` },
      { kind: 'note', text: "If you don't know this organization, ignore this email: nothing happens unless you accept." },
    ],
  }),
  vi: ({ name, organization, inviter, role, link }, brand, { greeting }) => ({
    subject: `${inviter} mời bạn tham gia ${organization} trên ${brand}`,
    heading: `Tham gia ${organization}`,
    blocks: [
      greeting(name),
      { kind: 'p', text: `${inviter} đã mời bạn tham gia tổ chức ${organization} trên ${brand} với vai trò ${roleWords.vi[role]}.` },
      { kind: 'button', label: 'Chấp nhận lời mời', url: link },
      { kind: 'p', text: `Lời mời có hiệu lực trong ${INVITATION_VALID_DAYS} ngày và chỉ dùng được một lần.` },
      { kind: 'note', text: 'Nếu bạn không biết tổ chức này, hãy bỏ qua email này: không có gì thay đổi nếu bạn không chấp nhận.' },
    ],
  }),
});
