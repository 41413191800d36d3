import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fileDatabase } from '../../../test/db-target';
import { startSmtpPeer, type SmtpPeer } from '../../../test/smtp-peer';
import { resetPasswordMail } from '../../modules/auth';
import { loginCodeMail } from '../../modules/mfa';
import { createMailer, listOutbox, type Mailer } from './index';

const database = fileDatabase();

describe('SMTP mailer against a real SMTP peer', () => {
  let peer: SmtpPeer;
  let mailer: Mailer;
  beforeAll(async () => {
    peer = await startSmtpPeer();
    mailer = createMailer({ smtpUrl: peer.url, from: 'CyStack ID <no-reply@cystack.test>', database });
  });
  afterAll(async () => {
    await mailer?.close();
    await peer?.close();
  });

  it('delivers subject, recipient and both text and HTML parts', async () => {
    expect(mailer.mode).toBe('smtp');
    const rendered = loginCodeMail({ lang: 'en', brand: 'platform', name: 'Alice', code: '493027' });
    await mailer.send({ to: 'alice@example.com', ...rendered });
    const mail = await peer.waitFor((received) => received.to.includes('alice@example.com'));
    expect(mail.to).toEqual(['alice@example.com']);
    expect(mail.from).toBe('no-reply@cystack.test');
    expect(mail.headers.from).toContain('CyStack ID');
    expect(mail.subject).toBe('Your CyStack ID sign-in code');
    expect(mail.contentTypes).toEqual(['text/plain', 'text/html']);
    expect(mail.text).toContain('493027');
    expect(mail.text).toContain('Hi Alice,');
    expect(mail.html).toContain('493027');
    expect(mail.html).toContain('<h1');
  });

  it('keeps Vietnamese text intact in subject and body (UTF-8)', async () => {
    const rendered = resetPasswordMail({
      lang: 'vi',
      brand: 'locker',
      name: 'Nguyễn Thị Hồng',
      code: '120934',
      link: 'https://id.locker.test/reset-pwd/abc',
    });
    await mailer.send({ to: 'hong@example.vn', ...rendered });
    const mail = await peer.waitFor((received) => received.to.includes('hong@example.vn'));
    expect(mail.subject).toBe('Đặt lại mật khẩu Locker ID');
    expect(mail.text).toContain('Xin chào Nguyễn Thị Hồng,');
    expect(mail.text).toContain('Mã và liên kết có hiệu lực trong 10 phút');
    expect(mail.text).toContain('https://id.locker.test/reset-pwd/abc');
    expect(mail.html).toContain('Nguyễn Thị Hồng');
    expect(mail.html).toContain('Đặt lại mật khẩu');
  });

  it('tells when the mail sent in the background has gone, and closes only after it', async () => {
    const sent: string[] = [];
    const own = createMailer({ smtpUrl: peer.url, from: 'x@example.com', database });
    const send = (to: string) => void own.send({ to, subject: 's', text: 't', html: '<p>t</p>' }).then(() => sent.push(to));
    send('first@example.com');
    send('second@example.com');
    await own.settled();
    expect(sent.sort()).toEqual(['first@example.com', 'second@example.com']);
    // A send still in flight when the mailer closes is finished first, not cut off.
    send('last@example.com');
    await own.close();
    expect(sent).toContain('last@example.com');
  });

  it('waits in settled() for tracked work that sends mail after the answer (a queue run), and for keyed mail with its Message-ID', async () => {
    const own = createMailer({ smtpUrl: peer.url, from: 'CyStack ID <no-reply@cystack.test>', database });
    const key = '5b0f4e52-8d7e-4a57-9a3e-3f4b7d1c2a90';
    own.track?.(new Promise((resolve) => setTimeout(resolve, 50)).then(() => own.send({ to: 'queued@example.com', subject: 's', text: 't', html: '<p>t</p>', key })));
    await own.settled();
    const mail = peer.messages.find((received) => received.to.includes('queued@example.com'));
    expect(mail?.headers['message-id']).toBe(`<${key}@cystack.test>`);
    await own.close();
  });

  it('fails the send when the relay is unreachable', async () => {
    const dead = await startSmtpPeer();
    const url = dead.url;
    await dead.close();
    const broken = createMailer({ smtpUrl: url, from: 'x@example.com', database });
    await expect(broken.send({ to: 'a@example.com', subject: 's', text: 't', html: '<p>t</p>' })).rejects.toThrow();
    await broken.close();
  });
});

describe('dev outbox mailer', () => {
  it('stores each mail, logs it, and lists newest first', async () => {
    const logged: Array<{ object: Record<string, unknown>; message: string }> = [];
    const mailer = createMailer({
      from: 'CyStack ID <no-reply@localhost>',
      logBodies: true,
      database,
      logger: { info: (object, message) => logged.push({ object: object as Record<string, unknown>, message }) },
    });
    expect(mailer.mode).toBe('outbox');
    await mailer.send({ to: 'Bob@Example.com', subject: 'first', text: 'one', html: '<p>one</p>' });
    await mailer.send({ to: 'bob@example.com', subject: 'second', text: 'two https://x.test/a', html: '<p>two</p>' });
    await mailer.send({ to: 'carol@example.com', subject: 'other', text: 'three', html: '<p>three</p>' });

    const bobs = await listOutbox(database, { to: 'BOB@example.com' });
    expect(bobs.map((mail) => mail.subject)).toEqual(['second', 'first']);
    expect(bobs[0]).toMatchObject({ to: 'bob@example.com', text: 'two https://x.test/a', html: '<p>two</p>' });
    expect(bobs[0]!.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(bobs[0]!.createdAt).toBeInstanceOf(Date);

    expect((await listOutbox(database, { limit: 1 })).map((mail) => mail.subject)).toEqual(['other']);
    expect(logged).toHaveLength(3);
    expect(logged[1]!.object).toMatchObject({ to: 'bob@example.com', subject: 'second', body: 'two https://x.test/a' });
    await mailer.close();
  });
});
