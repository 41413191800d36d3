import { describe, expect, it } from 'vitest';
import { activationMail, passwordChangedMail, resetPasswordMail, signupExistingMail } from './modules/auth';
import { emailChangeCodeMail } from './modules/account';
import { socialSignupCodeMail } from './modules/federation';
import { loginCodeMail } from './modules/mfa';
import { renderAlert, type MailTarget, type RenderedMail } from './platform/mail';

/** Every kind of mail, from the module that sends it. */
const renderers = {
  activation: activationMail,
  signup_existing: signupExistingMail,
  reset_password: resetPasswordMail,
  password_changed: passwordChangedMail,
  login_code: loginCodeMail,
  email_change_code: emailChangeCodeMail,
  social_signup_code: socialSignupCodeMail,
  security_alert: renderAlert,
};
type MailKind = keyof typeof renderers;
type MailVars<K extends MailKind> = Parameters<(typeof renderers)[K]>[0];
const mailKinds = Object.keys(renderers) as MailKind[];
const renderMail = <K extends MailKind>(kind: K, vars: MailVars<K> & MailTarget): RenderedMail => (renderers[kind] as (vars: MailVars<K>) => RenderedMail)(vars);

const LINK = 'https://id.example.test/path?token=abc&x=1';

const samples: { [K in MailKind]: Omit<MailVars<K>, 'lang' | 'brand'> } = {
  activation: { name: 'Alice', link: LINK },
  signup_existing: { link: 'https://id.example.test/login', resetLink: 'https://id.example.test/forgot' },
  reset_password: { code: '123456', link: LINK },
  password_changed: { supportUrl: 'https://id.example.test/support' },
  login_code: { code: '654321' },
  email_change_code: { code: '777111', newEmail: 'new@example.com' },
  social_signup_code: { code: '424242', provider: 'GitHub' },
  security_alert: { title: 'New sign-in', lines: ['A new device signed in to your account.'] },
};

function render(kind: MailKind, lang: 'en' | 'vi', brand: 'platform' | 'locker' = 'platform') {
  return renderMail(kind, { lang, brand, ...samples[kind] } as MailVars<typeof kind>);
}

describe('renderMail', () => {
  it.each(mailKinds.flatMap((kind) => [[kind, 'en'] as const, [kind, 'vi'] as const]))('%s in %s has subject, text and html', (kind, lang) => {
    const mail = render(kind, lang);
    expect(mail.subject.length).toBeGreaterThan(5);
    expect(mail.text).toContain('CyStack ID');
    expect(mail.html).toMatch(/^<!doctype html>/);
    expect(mail.html).toContain(`lang="${lang}"`);
    expect(mail.html).toContain('#1D4ED8');
    // The two parts carry the same codes and links.
    for (const value of Object.values(samples[kind]).filter((v): v is string => typeof v === 'string' && /^(\d{6}|https:)/.test(v))) {
      expect(mail.text).toContain(value);
    }
  });

  it('uses the brand name and colour', () => {
    const mail = render('activation', 'en', 'locker');
    expect(mail.subject).toBe('Activate your Locker ID account');
    expect(mail.html).toContain('#268334');
    expect(mail.html).not.toContain('CyStack ID');
  });

  it('writes proper Vietnamese', () => {
    const mail = render('login_code', 'vi');
    expect(mail.subject).toBe('Mã đăng nhập CyStack ID của bạn');
    expect(mail.text).toContain('Mã có hiệu lực trong 10 phút.');
    expect(mail.text).toContain('Xin chào,');
    expect(render('password_changed', 'vi').text).toContain('tất cả các phiên đăng nhập khác đã được đăng xuất');
  });

  it('gives the reset code, the link and the 10-minute validity', () => {
    const mail = render('reset_password', 'en');
    expect(mail.text).toContain('123456');
    expect(mail.text).toContain(`Reset password: ${LINK}`);
    expect(mail.text).toContain('valid for 10 minutes');
    expect(mail.html).toContain('href="https://id.example.test/path?token=abc&amp;x=1"');
  });

  it('says other sessions were signed out and to contact support', () => {
    const mail = render('password_changed', 'en');
    expect(mail.text).toContain('all other sessions have been signed out');
    expect(mail.text).toContain('contact our support team');
    expect(mail.text).toContain('Contact support: https://id.example.test/support');
  });

  it('escapes every interpolated value in the HTML', () => {
    const mail = renderMail('security_alert', {
      lang: 'en',
      brand: 'platform',
      name: '<img src=x onerror=alert(1)>',
      title: 'Alert "<b>"',
      lines: ["<script>alert('x')</script> & more"],
      link: { label: '<i>open</i>', url: 'https://x.test/?a="><script>' },
    });
    expect(mail.html).not.toMatch(/<script|<img|<b>|<i>/);
    expect(mail.html).toContain('&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt; &amp; more');
    expect(mail.html).toContain('href="https://x.test/?a=&quot;&gt;&lt;script&gt;"');
    // The text part is plain text: nothing to escape.
    expect(mail.text).toContain("<script>alert('x')</script> & more");
  });

  it('refuses relative or non-http links', () => {
    expect(() => renderMail('activation', { lang: 'en', brand: 'platform', link: '/confirmation/abc' })).toThrow(/absolute/);
    expect(() => renderMail('activation', { lang: 'en', brand: 'platform', link: 'javascript:alert(1)' })).toThrow(/http/);
  });
});
