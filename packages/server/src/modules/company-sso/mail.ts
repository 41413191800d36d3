import { DOMAIN_PROOF_VALID_MINUTES } from '@portal/contracts';
import { defineMail } from '../../platform/mail';

interface DomainProofVars {
  organization: string;
  requester: string;
  domain: string;
  code: string;
}

/** The mailed proof of a domain: a code the organization's admin enters on the SSO settings page. */
export const domainProofMail = defineMail<DomainProofVars>({
  en: ({ organization, requester, domain, code }, brand, { greeting }) => ({
    subject: `Verify ${domain} for ${organization} on ${brand}`,
    heading: `Verify ${domain}`,
    blocks: [
      greeting(undefined),
      { kind: 'p', text: `${requester} asked to verify that the organization ${organization} controls the domain ${domain}, so that its single sign-on (SSO) can speak for email addresses at ${domain}. If you agree, give them this code:` },
      { kind: 'code', code },
      { kind: 'p', text: `The code is valid for ${DOMAIN_PROOF_VALID_MINUTES} minutes and can be used once.` },
      { kind: 'note', text: "If you don't know this organization or this request, don't share the code: nothing happens without it." },
    ],
  }),
  vi: ({ organization, requester, domain, code }, brand, { greeting }) => ({
    subject: `Xác minh ${domain} cho ${organization} trên ${brand}`,
    heading: `Xác minh ${domain}`,
    blocks: [
      greeting(undefined),
      { kind: 'p', text: `${requester} yêu cầu xác minh rằng tổ chức ${organization} quản lý tên miền ${domain}, để đăng nhập một lần (SSO) của tổ chức đại diện cho các địa chỉ email tại ${domain}. Nếu bạn đồng ý, hãy gửi cho họ mã sau:` },
      { kind: 'code', code },
      { kind: 'p', text: `Mã có hiệu lực trong ${DOMAIN_PROOF_VALID_MINUTES} phút và chỉ dùng được một lần.` },
      { kind: 'note', text: 'Nếu bạn không biết tổ chức hoặc yêu cầu này, đừng chia sẻ mã: không có gì thay đổi nếu không có mã.' },
    ],
  }),
});
