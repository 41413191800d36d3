import { describe, expect, it } from 'vitest';
import { crc16, vietQrPayload } from './vietqr';

describe('VietQR payload', () => {
  it('computes the CRC of NAPAS test vectors (IBFT to account and to card, static)', () => {
    // NAPAS VietQR specification, test vectors 6.1.1 and 6.1.2 (CRC-16/CCITT-FALSE over the string with "6304").
    expect(crc16('00020101021138570010A00000072701270006970403011200110123456780208QRIBFTTA53037045802VN6304')).toBe('F4E5');
    expect(crc16('00020101021138600010A00000072701300006970403011697040311012345670208QRIBFTTC53037045802VN6304')).toBe('4F52');
    // The catalogue check value of CRC-16/CCITT-FALSE.
    expect(crc16('123456789')).toBe('29B1');
  });

  it('builds a static code (no amount) in the layout of test vector 6.1.1', () => {
    // The vector's text declares its 13-digit account "0112"; a well-formed field says "0113".
    const payload = vietQrPayload({ bin: '970403', accountNumber: '0011012345678' });
    expect(payload.slice(0, -4)).toBe('00020101021138570010A00000072701270006970403011300110123456780208QRIBFTTA53037045802VN6304');
    expect(payload.slice(-4)).toBe(crc16(payload.slice(0, -4)));
  });

  it('builds a dynamic code with the amount and the reference as purpose, as banking apps read it', () => {
    // A published dynamic VietQR string (Vietcombank, 850,000 VND, content DH482113).
    expect(vietQrPayload({ bin: '970436', accountNumber: '0071001234567', amount: 850_000, purpose: 'DH482113' })).toBe(
      '00020101021238570010A00000072701270006970436011300710012345670208QRIBFTTA530370454068500005802VN62120808DH4821136304E529',
    );
  });

  it('adds the optional name and city, and refuses what a code cannot hold', () => {
    const payload = vietQrPayload({ bin: '970436', accountNumber: '1234567890', amount: 10_000, purpose: 'PD4K7Q2M3A', merchantName: 'PORTAL', merchantCity: 'HANOI' });
    expect(payload).toContain('5906PORTAL6005HANOI62140810PD4K7Q2M3A6304');
    expect(payload.slice(-4)).toBe(crc16(payload.slice(0, -4)));
    expect(() => vietQrPayload({ bin: '97043', accountNumber: '1' })).toThrow();
    expect(() => vietQrPayload({ bin: '970436', accountNumber: '12 34' })).toThrow();
    expect(() => vietQrPayload({ bin: '970436', accountNumber: '1', amount: 1.5 })).toThrow();
    expect(() => vietQrPayload({ bin: '970436', accountNumber: '1', purpose: 'Chuyển tiền' })).toThrow();
  });
});
