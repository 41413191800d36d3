/**
 * VietQR (NAPAS's profile of the EMVCo merchant-presented QR code) for a bank transfer to an
 * account, "IBFT to account" (service code QRIBFTTA): pure, no I/O. Each field is
 * ID (2 digits) + length (2 digits) + value; the last is the CRC-16/CCITT-FALSE of everything
 * before it, its own "6304" included.
 */

export interface VietQrInput {
  /** The receiving bank's 6-digit NAPAS BIN. */
  bin: string;
  /** The receiving account's number. */
  accountNumber: string;
  /** Whole dong; a code with an amount is dynamic (01 = 12), without one static (11). */
  amount?: number;
  /** The transfer's content (62/08, the purpose of transaction): our order's reference. */
  purpose?: string;
  /** Optional merchant name (59) and city (60). */
  merchantName?: string;
  merchantCity?: string;
}

const VIETQR_GUID = 'A000000727';
const SERVICE_TO_ACCOUNT = 'QRIBFTTA';

/** One ID-length-value field; values are ASCII, at most 99 characters. */
function field(id: string, value: string): string {
  if (!/^[\x20-\x7e]*$/.test(value)) throw new Error(`VietQR field ${id} must be printable ASCII`);
  if (value.length > 99) throw new Error(`VietQR field ${id} is longer than 99 characters`);
  return `${id}${String(value.length).padStart(2, '0')}${value}`;
}

/** CRC-16/CCITT-FALSE (polynomial 0x1021, initial 0xFFFF, no reflection, no final XOR) as 4 uppercase hex digits. */
export function crc16(text: string): string {
  let crc = 0xffff;
  for (const byte of Buffer.from(text, 'utf8')) {
    crc ^= byte << 8;
    for (let bit = 0; bit < 8; bit += 1) crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
  }
  return crc.toString(16).toUpperCase().padStart(4, '0');
}

/** The EMVCo payload a banking app reads to prefill the transfer. */
export function vietQrPayload(input: VietQrInput): string {
  if (!/^\d{6}$/.test(input.bin)) throw new Error('VietQR BIN must be 6 digits');
  if (!/^[0-9A-Za-z]{1,19}$/.test(input.accountNumber)) throw new Error('VietQR account number must be 1 to 19 letters or digits');
  if (input.amount !== undefined && (!Number.isSafeInteger(input.amount) || input.amount <= 0 || String(input.amount).length > 13)) {
    throw new Error('VietQR amount must be a positive whole number of at most 13 digits');
  }
  const beneficiary = field('00', input.bin) + field('01', input.accountNumber);
  const merchantAccount = field('00', VIETQR_GUID) + field('01', beneficiary) + field('02', SERVICE_TO_ACCOUNT);
  let payload =
    field('00', '01') +
    field('01', input.amount === undefined ? '11' : '12') +
    field('38', merchantAccount) +
    field('53', '704') +
    (input.amount === undefined ? '' : field('54', String(input.amount))) +
    field('58', 'VN');
  if (input.merchantName) payload += field('59', input.merchantName.slice(0, 25));
  if (input.merchantCity) payload += field('60', input.merchantCity.slice(0, 15));
  if (input.purpose) payload += field('62', field('08', input.purpose.slice(0, 25)));
  payload += '6304';
  return payload + crc16(payload);
}
