import { MODERATOR_INVITATION_VALID_DAYS } from '@portal/contracts';
import { defineMail } from '../../platform/mail';

interface ModeratorInvitationVars {
  website: string;
  product: string;
  link: string;
}

/** A product's invitation to moderate one of its websites: the link accepts (an account) or signs up (none). */
export const moderatorInvitationMail = defineMail<ModeratorInvitationVars>({
  en: ({ name, website, product, link }, brand, { greeting }) => ({
    subject: `You are invited to moderate ${website} on ${product}`,
    heading: `Moderate ${website}`,
    blocks: [
      greeting(name),
      { kind: 'p', text: `${product} invited you to be a moderator of the website ${website}. Moderators receive the website's security-analysis notifications in their ${brand} account.` },
      { kind: 'button', label: 'Accept the invitation', url: link },
      { kind: 'p', text: `The invitation is valid for ${MODERATOR_INVITATION_VALID_DAYS} days and can be used once.` },
      { kind: 'note', text: "If you don't know this website, ignore this email: nothing happens unless you accept." },
    ],
  }),
  vi: ({ name, website, product, link }, brand, { greeting }) => ({
    subject: `Bạn được mời làm người kiểm duyệt ${website} trên ${product}`,
    heading: `Kiểm duyệt ${website}`,
    blocks: [
      greeting(name),
      { kind: 'p', text: `${product} đã mời bạn làm người kiểm duyệt của trang web ${website}. Người kiểm duyệt nhận các thông báo phân tích bảo mật của trang web trong tài khoản ${brand} của mình.` },
      { kind: 'button', label: 'Chấp nhận lời mời', url: link },
      { kind: 'p', text: `Lời mời có hiệu lực trong ${MODERATOR_INVITATION_VALID_DAYS} ngày và chỉ dùng được một lần.` },
      { kind: 'note', text: 'Nếu bạn không biết trang web này, hãy bỏ qua email này: không có gì thay đổi nếu bạn không chấp nhận.' },
    ],
  }),
});
