import { createHmac } from 'node:crypto';

/**
 * What an address looks like, as weighted choices: most mailboxes are a name with a few
 * digits at one of a handful of providers. A decoy drawn from these masks into the same
 * shapes and alphabet as real addresses do.
 */
const PROVIDERS = ['gmail.com', 'gmail.com', 'gmail.com', 'gmail.com', 'yahoo.com', 'outlook.com', 'hotmail.com', 'icloud.com', 'proton.me', 'yandex.ru', 'mail.ru', 'gmx.de', 'fpt.com.vn', 'vnpt.vn'];
const LETTERS = 'abcdefghijklmnopqrstuvwxyz';
const SEPARATORS = ['', '', '', '.', '_'];

/**
 * A plausible email address for an identifier with no account, the same on every call and
 * every node (an HMAC under a server key), so asking twice cannot tell a decoy from a real
 * account's hint by its changing.
 */
export function decoyEmail(identifier: string, key: string): string {
  const bytes = createHmac('sha256', key).update(`decoy-email:${identifier.trim().toLowerCase()}`).digest();
  let next = 0;
  const pick = <T>(items: readonly T[]): T => items[bytes[next++ % bytes.length]! % items.length]!;
  const word = (length: number) => Array.from({ length }, () => pick([...LETTERS])).join('');
  const first = word(3 + (bytes[30]! % 6));
  const second = bytes[31]! % 3 === 0 ? `${pick(SEPARATORS)}${word(2 + (bytes[29]! % 5))}` : '';
  const digits = bytes[28]! % 2 === 0 ? String(bytes[27]! % 100) : '';
  return `${first}${second}${digits}@${pick(PROVIDERS)}`;
}
