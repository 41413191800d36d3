import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { newSigningSecret, signedHeaders, signerFor } from './signing';

describe('webhook signatures', () => {
  it('are what the standardwebhooks library signs, and it verifies them', () => {
    const secret = newSigningSecret();
    const sign = signerFor(secret);
    const sentAt = new Date('2030-01-02T03:04:05.678Z');
    for (const body of ['{}', JSON.stringify({ type: 'user.created', data: { name: 'Nguyễn Văn Ả 🙂', email: 'a@example.com' } })]) {
      const headers = sign('evt_1', body, sentAt);
      expect(headers['webhook-timestamp']).toBe(String(Math.floor(sentAt.getTime() / 1000)));
      expect(headers['webhook-signature']).toBe(new Webhook(secret).sign('evt_1', new Date(Math.floor(sentAt.getTime() / 1000) * 1000), body));
      expect(signedHeaders(secret, 'evt_1', body, sentAt)).toEqual(headers);
      // The receiver's check, at the time it was sent.
      const now = Date.now;
      Date.now = () => sentAt.getTime();
      try {
        expect(new Webhook(secret).verify(body, headers)).toEqual(JSON.parse(body));
      } finally {
        Date.now = now;
      }
    }
  });

  it('another secret, event id or body gives a signature the receiver refuses', () => {
    const secret = newSigningSecret();
    const sentAt = new Date();
    const headers = signerFor(secret)('evt_1', '{"a":1}', sentAt);
    expect(() => new Webhook(newSigningSecret()).verify('{"a":1}', headers)).toThrow();
    expect(() => new Webhook(secret).verify('{"a":2}', headers)).toThrow();
    expect(() => new Webhook(secret).verify('{"a":1}', { ...headers, 'webhook-id': 'evt_2' })).toThrow();
  });
});
