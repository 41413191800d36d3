import { describe, expect, it } from 'vitest';
import { manualClock } from '../../../test/clock';
import { fileServerWithClient } from '../../../test/server-with-client';
import { maskEmail } from './recovery';
import { solveCaptcha } from '../../../test/captcha';

const clock = manualClock();
const OLD = 'plum-orbit-cactus-917';
const NEW = 'violet-harbor-lantern-42';

const { server, client } = fileServerWithClient({ clock });

const me = (token: string) => server.app.inject({ url: '/v3/sso/me', headers: { authorization: `Bearer ${token}` } });

describe('maskEmail', () => {
  it('shows the first and last parts only', () => {
    expect(maskEmail('john.doe@gmail.com')).toBe('jo***e@g***.com');
    expect(maskEmail('ab@x.io')).toBe('a***@x***.io');
    expect(maskEmail('a@b.co')).toBe('a***@b***.co');
  });
});

describe('password recovery', () => {
  it('verifies the recovery email and mails the code there, for someone who lost the primary mailbox', async () => {
    const session = await client.registeredUser('lena@example.com', OLD);
    const auth = { authorization: `Bearer ${session}` };
    const set = await server.app.inject({ method: 'PUT', url: '/v3/sso/me/recovery-email', headers: auth, payload: { email: 'lena.backup@example.org', password: OLD } });
    expect(set.statusCode).toBeLessThan(300);
    const [, verifyCode] = await client.mailTo('lena.backup@example.org', /\b(\d{6})\b/);
    const verified = await server.app.inject({ method: 'POST', url: '/v3/sso/me/recovery-email/verify', headers: auth, payload: { code: verifyCode } });
    expect(verified.statusCode).toBe(200);

    // A wrong address hints at the recovery email, the one the spec asks for.
    const mismatch = await client.post('/v3/sso/password/forgot/verify-email', { identifier: 'lena@example.com', email: 'someone@example.com' }, {}, '198.51.100.60');
    expect(mismatch.json()).toMatchObject({ code: 'auth.recovery_email_mismatch', details: { hint: maskEmail('lena.backup@example.org') } });

    const sent = await client.post('/v3/sso/password/forgot/verify-email', { identifier: 'lena@example.com', email: 'Lena.Backup@example.org' }, {}, '198.51.100.60');
    expect(sent.statusCode).toBe(204);
    const [, code] = await client.mailTo('lena.backup@example.org', /\b(\d{6})\b/, [verifyCode!]);
    const exchanged = await client.post('/v3/sso/password/forgot/verify-code', { identifier: 'lena@example.com', code }, {}, '198.51.100.60');
    expect(exchanged.statusCode).toBe(200);
    const reset = await client.post('/v3/sso/password/reset', { token: exchanged.json().reset_token, new_password: NEW, confirm_password: NEW }, {}, '198.51.100.60');
    expect(reset.statusCode).toBe(204);
    expect((await client.signIn('lena@example.com', NEW)).statusCode).toBe(200);
  });

  it('resets with the mailed code, signs out every session and mails the owner', async () => {
    const session = await client.registeredUser('henry@example.com', OLD);
    const mismatch = await client.post('/v3/sso/password/forgot/verify-email', { identifier: 'henry@example.com', email: 'other@example.com' });
    expect(mismatch.statusCode).toBe(400);
    expect(mismatch.json()).toMatchObject({ code: 'auth.recovery_email_mismatch', details: { hint: 'he***y@e***.com' } });

    const sent = await client.post('/v3/sso/password/forgot/verify-email', { identifier: 'henry@example.com', email: 'henry@example.com' });
    expect(sent.statusCode).toBe(204);
    const [, code] = await client.mailTo('henry@example.com', /\b(\d{6})\b/);

    const wrong = await client.post('/v3/sso/password/forgot/verify-code', { identifier: 'henry@example.com', code: code === '000000' ? '111111' : '000000' });
    expect(wrong.json().message).toBe('Verification code incorrect or expired');
    const verified = await client.post('/v3/sso/password/forgot/verify-code', { identifier: 'henry@example.com', code });
    expect(verified.statusCode).toBe(200);
    const { reset_token } = verified.json();
    const reused = await client.post('/v3/sso/password/forgot/verify-code', { identifier: 'henry@example.com', code });
    expect(reused.json().code).toBe('auth.code_invalid');

    const mismatchConfirm = await client.post('/v3/sso/password/reset', { token: reset_token, new_password: NEW, confirm_password: NEW + 'x' });
    expect(mismatchConfirm.json().details.fields.confirm_password).toEqual({ code: 'validation.confirmMismatch', message: 'Confirm password is not match!' });
    const same = await client.post('/v3/sso/password/reset', { token: reset_token, new_password: OLD, confirm_password: OLD });
    expect(same.json().code).toBe('auth.password_same_as_old');

    const reset = await client.post('/v3/sso/password/reset', { token: reset_token, new_password: NEW, confirm_password: NEW });
    expect(reset.statusCode).toBe(204);
    expect((await me(session)).statusCode).toBe(401);
    expect((await client.signIn('henry@example.com', OLD)).statusCode).toBe(400);
    expect((await client.signIn('henry@example.com', NEW)).statusCode).toBe(200);
    await client.mailTo('henry@example.com', /password was changed|mật khẩu .* đã được thay đổi/i);

    const twice = await client.post('/v3/sso/password/reset', { token: reset_token, new_password: 'x' + NEW, confirm_password: 'x' + NEW });
    expect(twice.json().code).toBe('auth.reset_link_invalid');
  });

  it('lets a code die after five wrong guesses', async () => {
    await client.registeredUser('ivy@example.com', OLD);
    await client.post('/v3/sso/password/forgot/verify-email', { identifier: 'ivy@example.com', email: 'ivy@example.com' });
    const [, code] = await client.mailTo('ivy@example.com', /\b(\d{6})\b/);
    const wrongCode = code === '999999' ? '999998' : '999999';
    for (let attempt = 0; attempt < 5; attempt += 1) {
      await client.post('/v3/sso/password/forgot/verify-code', { identifier: 'ivy@example.com', code: wrongCode });
    }
    const right = await client.post('/v3/sso/password/forgot/verify-code', { identifier: 'ivy@example.com', code });
    expect(right.json().code).toBe('auth.code_invalid');
  });

  it('expires reset links after 10 minutes', async () => {
    await client.registeredUser('jack@example.com', OLD);
    await client.post('/v3/sso/password/forgot/verify-email', { identifier: 'jack@example.com', email: 'jack@example.com' });
    const [, token] = await client.mailTo('jack@example.com', /\/reset-pwd\/([\w-]+)/);
    expect((await client.post('/v3/sso/password/reset/check', { token })).statusCode).toBe(204);
    clock.advance(10 * 60 * 1000 + 1000);
    expect((await client.post('/v3/sso/password/reset/check', { token })).json().code).toBe('auth.reset_link_invalid');
  });

  it('answers an unknown account the same way', async () => {
    await client.registeredUser('kate@example.com', OLD);
    const known = await client.post('/v3/sso/password/forgot/verify-email', { identifier: 'kate@example.com', email: 'kate@example.com' });
    const unknown = await client.post('/v3/sso/password/forgot/verify-email', { identifier: 'kim@example.com', email: 'kim@example.com' });
    expect(unknown.statusCode).toBe(known.statusCode);
    const knownMismatch = await client.post('/v3/sso/password/forgot/verify-email', { identifier: 'kate@example.com', email: 'x@example.com' });
    const unknownMismatch = await client.post('/v3/sso/password/forgot/verify-email', { identifier: 'kam@example.com', email: 'x@example.com' });
    expect(knownMismatch.json().details.hint).toBe('ka***e@e***.com');
    expect(unknownMismatch.json().details.hint).toBe('ka***m@e***.com');
    const byUsername = await client.post('/v3/sso/password/forgot/verify-email', { identifier: 'nosuchuser', email: 'x@example.com' });
    expect(byUsername.json().details.hint).toMatch(/^\w+\*\*\*\w*@\w\*\*\*\.\w+$/);
  });

  it('asks for a captcha after three wrong recovery emails, for known and unknown accounts alike', async () => {
    await client.registeredUser('guarded@example.com', OLD);
    for (const identifier of ['guarded@example.com', 'nobody-here@example.com']) {
      const verify = (email: string, captcha?: string) => client.post('/v3/sso/password/forgot/verify-email', { identifier, email, captcha }, {}, '198.51.100.7');
      const answers = [];
      for (let attempt = 0; attempt < 3; attempt++) answers.push((await verify(`wrong-${attempt}@example.com`)).json());
      expect(answers.map((answer) => answer.code)).toEqual(['auth.recovery_email_mismatch', 'auth.recovery_email_mismatch', 'auth.recovery_email_mismatch']);
      expect(answers.map((answer) => answer.details.captcha_required)).toEqual([false, false, true]);
      expect((await verify(identifier)).json().code).toBe('auth.captcha_required');
      const solved = await verify(identifier, await solveCaptcha(server.app));
      expect(solved.statusCode).toBe(204);
      // The right answer clears the count: the next attempt needs no captcha.
      expect((await verify(identifier)).statusCode).toBe(204);
    }
  });
});
