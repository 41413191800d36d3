import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { updateMeRequestSchema, type FieldError } from '@portal/contracts';
import { messageKey, translateMessage } from '../../components/dialogs/form-errors';
import { fieldErrorKey } from '../../lib/api';
import { i18n, initI18n, loadAccountCatalogue } from '../../lib/i18n';
import { applyLanguage } from '../../lib/language';
import { profileRequest, profileSchema, profileValues, type ProfileValues } from './profile-schema';

const user = { id: 'u1', email: 'ada@example.com', full_name: 'Ada Lovelace', language: 'en', customer_language: 'en' } as const;
const valid: ProfileValues = { ...profileValues(user), username: 'ada1815', phone: '0123456789', company: 'AnalyticalEngines', organization: 'RoyalSociety', address: '12StJamesSquare', country: 'GB' };

/** A server field error as the form shows it (form-errors placeServerErrors), in the language shown now. */
function serverMessage(field: FieldError): string | undefined {
  const known = fieldErrorKey(field);
  return translateMessage(known ? messageKey(known.key, known.params) : field.message);
}

/** The translated message of each failing field, in the language shown now. */
function messages(values: Partial<ProfileValues>): Record<string, string | undefined> {
  const result = profileSchema.safeParse({ ...valid, ...values });
  if (result.success) return {};
  const found: Record<string, string | undefined> = {};
  for (const issue of result.error.issues) found[String(issue.path[0])] ??= translateMessage(issue.message);
  return found;
}

beforeAll(async () => {
  initI18n('en');
  await loadAccountCatalogue();
});

afterEach(async () => {
  await applyLanguage('en');
});

describe('profile rules (the spec validation rules)', () => {
  it('accepts a complete, valid profile: a name of any script, the alphanumeric fields in A to Z and digits', () => {
    expect(messages({})).toEqual({});
    expect(messages({ full_name: 'Nguyễn Thị Hồng', company: 'CyStack2024', address: '19LeThanhTong' })).toEqual({});
    expect(messages({ username: '', phone: '', company: '', organization: '', address: '', country: '' })).toEqual({});
  });

  it('says each rule in English', () => {
    expect(messages({ full_name: '   ' })).toEqual({ full_name: 'This field may not be blank.' });
    expect(messages({ phone: '+84 123' })).toEqual({ phone: 'Enter a phone number of digits only' });
    expect(messages({ username: 'ada.l' })).toEqual({ username: 'Enter a username of letters and digits only' });
    expect(messages({ company: 'A&B Ltd.' })).toEqual({ company: 'Enter a company name of letters and digits only' });
    expect(messages({ organization: 'R/S' })).toEqual({ organization: 'Enter an organization name of letters and digits only' });
    expect(messages({ address: '12, St James' })).toEqual({ address: 'Enter an address of letters and digits only' });
    // The spec's "alphanumeric only": no spaces, no letters of other scripts.
    expect(messages({ company: 'Acme Corp' })).toEqual({ company: 'Enter a company name of letters and digits only' });
    expect(messages({ organization: 'OWASP Hà Nội' })).toEqual({ organization: 'Enter an organization name of letters and digits only' });
    expect(messages({ phone: '1'.repeat(21) })).toEqual({ phone: 'Enter at most 20 characters' });
  });

  it('says each rule in Vietnamese', async () => {
    await applyLanguage('vi');
    expect(i18n.language).toBe('vi');
    expect(messages({ full_name: '' })).toEqual({ full_name: 'Trường này không được để trống.' });
    expect(messages({ phone: '12a' })).toEqual({ phone: 'Nhập số điện thoại chỉ gồm chữ số' });
    expect(messages({ username: 'nguyễn' })).toEqual({ username: 'Nhập tên người dùng chỉ gồm chữ cái và chữ số' });
    expect(messages({ company: 'A&B' })).toEqual({ company: 'Nhập tên công ty chỉ gồm chữ cái và chữ số' });
    expect(messages({ organization: 'R/S' })).toEqual({ organization: 'Nhập tên tổ chức chỉ gồm chữ cái và chữ số' });
    expect(messages({ address: 'số 12, phố Huế' })).toEqual({ address: 'Nhập địa chỉ chỉ gồm chữ cái và chữ số' });
    expect(messages({ phone: '1'.repeat(21) })).toEqual({ phone: 'Nhập tối đa 20 ký tự' });
  });

  it("translates the server's field codes the browser could not have known", async () => {
    const taken = { code: 'account.username_taken', message: 'This username is already taken' } as const;
    const phone = { code: 'account.validation.phone', message: 'Enter a phone number of digits only' } as const;
    expect(serverMessage(taken)).toBe('This username is already taken');
    expect(serverMessage(phone)).toBe('Enter a phone number of digits only');
    await applyLanguage('vi');
    expect(serverMessage(taken)).toBe('Tên người dùng này đã có người sử dụng');
    expect(serverMessage(phone)).toBe('Nhập số điện thoại chỉ gồm chữ số');
  });

  it("gives the same answers as the server's schema (contracts updateMeRequestSchema)", () => {
    const samples: Partial<ProfileValues>[] = [
      {},
      { full_name: '' },
      { full_name: 'x'.repeat(101) },
      { username: 'ok123' },
      { username: 'not ok' },
      { username: 'ñandú' },
      { phone: '0912345678' },
      { phone: '091-234' },
      { phone: '1'.repeat(20) },
      { phone: '1'.repeat(21) },
      { company: 'Tập đoàn Bảo mật 2024' },
      { company: 'Acme2024' },
      { company: 'Acme Corp' },
      { company: 'Acme, Inc.' },
      { organization: 'OWASP Hà Nội' },
      { organization: 'a_b' },
      { address: 'Số 1 Đại Cồ Việt' },
      { address: '1/2 Main St.' },
      { address: 'x'.repeat(201) },
      { country: 'VN' },
      { country: 'vn' },
      { country: '' },
    ];
    for (const sample of samples) {
      const values = { ...valid, ...sample };
      const ours = profileSchema.safeParse(values).success;
      const theirs = updateMeRequestSchema.safeParse(profileRequest(user, values, 'en')).success;
      expect([sample, ours]).toEqual([sample, theirs]);
    }
  });

  it('sends the whole user object with both languages, empty fields as null', () => {
    const body = profileRequest({ ...user, language: 'vi', customer_language: 'vi' }, { ...valid, phone: ' ', country: '' }, 'en');
    expect(body).toMatchObject({ id: 'u1', email: 'ada@example.com', phone: null, country: null, language: 'vi', customer_language: 'vi', username: 'ada1815' });
  });
});
