import { readFile } from 'node:fs/promises';
import { deflateSync } from 'node:zlib';
import { sharedAccount, signIn, toast } from './support/accounts';
import { pageErrors, snap } from './support/helpers';
import { expect, test } from './support/mail';

/**
 * The profile in a real browser against the real server: the spec's field rules in both
 * languages and a valid profile saved, the avatar checked, uploaded and removed, and the privacy
 * choices and the data download. One account for the block: its tests run in order.
 */

/** A solid-colour PNG, built here so the test needs no fixture file. */
function png(width: number, height: number, [r, g, b]: [number, number, number]): Buffer {
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc32 = (data: Buffer) => {
    let crc = 0xffffffff;
    for (const byte of data) crc = crcTable[(crc ^ byte) & 0xff]! ^ (crc >>> 8);
    return (crc ^ 0xffffffff) >>> 0;
  };
  const chunk = (type: string, data: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8-bit RGB
  const row = Buffer.concat([Buffer.from([0]), Buffer.from(Array.from({ length: width }, () => [r, g, b]).flat())]);
  const pixels = Buffer.concat(Array.from({ length: height }, () => row));
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', header), chunk('IDAT', deflateSync(pixels)), chunk('IEND', Buffer.alloc(0))]);
}

test.describe('profile', () => {
  test.describe.configure({ mode: 'default' });
  const shared = sharedAccount('profile');

  test('the field rules show in English and in Vietnamese; a valid profile is saved', async ({ page, context, portal }) => {
    const account = shared();
    await signIn(context, portal.platformUrl, account);
    const errors = pageErrors(page);
    await page.goto('/account');
    const form = page.getByTestId('profile-form');
    await expect(form.getByLabel('Full name')).toHaveValue('Ada Lovelace');

    await form.getByLabel('Full name').fill('   ');
    await form.getByLabel('Username').fill('ada.lovelace');
    await form.getByLabel('Phone').fill('+44 20 7946');
    await form.getByLabel('Company').fill('Babbage & Co.');
    await form.getByLabel('Organization').fill('Royal/Society');
    await form.getByLabel('Address').fill('12, St James Square');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await expect(form.getByText('This field may not be blank.')).toBeVisible();
    await expect(form.getByText('Enter a username of letters and digits only')).toBeVisible();
    await expect(form.getByText('Enter a phone number of digits only')).toBeVisible();
    await expect(form.getByText('Enter a company name of letters and digits only')).toBeVisible();
    await expect(form.getByText('Enter an organization name of letters and digits only')).toBeVisible();
    await expect(form.getByText('Enter an address of letters and digits only')).toBeVisible();
    await snap(page, 'account-profile-invalid-en');

    // The same messages in Vietnamese, from the preferences' language switch.
    await page.getByTestId('preferences-language').getByText('Tiếng Việt').click();
    await expect(form.getByText('Trường này không được để trống.')).toBeVisible();
    await expect(form.getByText('Nhập tên người dùng chỉ gồm chữ cái và chữ số')).toBeVisible();
    await expect(form.getByText('Nhập số điện thoại chỉ gồm chữ số')).toBeVisible();
    await expect(form.getByText('Nhập tên công ty chỉ gồm chữ cái và chữ số')).toBeVisible();
    await expect(form.getByText('Nhập tên tổ chức chỉ gồm chữ cái và chữ số')).toBeVisible();
    await expect(form.getByText('Nhập địa chỉ chỉ gồm chữ cái và chữ số')).toBeVisible();
    await snap(page, 'account-profile-invalid-vi');
    // Vietnamese-only option (the spec's permissions).
    await expect(page.getByTestId('vietnamese-only')).toBeVisible();

    await form.getByLabel('Họ và tên').fill('Nguyễn Thị Hồng');
    await form.getByLabel('Tên người dùng').fill('hongnguyen');
    await form.getByLabel('Số điện thoại').fill('0912345678');
    // The spec's validation rules: company, organization and address are alphanumeric only (A to Z and digits, no spaces).
    await form.getByLabel('Công ty').fill('Công ty An ninh mạng');
    await expect(form.getByText('Nhập tên công ty chỉ gồm chữ cái và chữ số')).toBeVisible();
    await form.getByLabel('Công ty').fill('CyStack');
    await form.getByLabel('Tổ chức').fill('OWASPHanoi');
    await form.getByLabel('Địa chỉ').fill('So1DaiCoViet');
    await form.getByTestId('country-select').click();
    await form.getByTestId('country-select').fill('Việt');
    await page.getByRole('option', { name: /Việt Nam/ }).first().click();
    await page.getByRole('button', { name: 'Lưu thay đổi' }).click();
    await expect(toast(page, 'Đã lưu thông tin cá nhân của bạn')).toBeVisible();
    await expect(page.getByTestId('header-user-name')).toHaveText('Nguyễn Thị Hồng');

    const me = await (await context.request.get('/v3/sso/me')).json();
    expect(me).toMatchObject({
      full_name: 'Nguyễn Thị Hồng',
      username: 'hongnguyen',
      phone: '0912345678',
      company: 'CyStack',
      organization: 'OWASPHanoi',
      address: 'So1DaiCoViet',
      country: 'VN',
      language: 'vi',
      customer_language: 'vi',
    });
    await snap(page, 'account-profile-saved-vi');
    expect(errors).toEqual([]);
  });

  test('an avatar is checked in the browser, uploaded, and shown from the server', async ({ page, context, portal }) => {
    const account = shared();
    await signIn(context, portal.platformUrl, account);
    await page.goto('/account');
    const file = page.getByTestId('avatar-file');

    // Not a picture: refused before any request.
    let uploads = 0;
    page.on('request', (sent) => {
      if (sent.url().endsWith('/v3/sso/me/avatar') && sent.method() === 'PUT') uploads += 1;
    });
    await file.setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('hello') });
    await expect(toast(page, 'Choose a PNG, JPEG or WebP image')).toBeVisible();
    expect(uploads).toBe(0);

    await file.setInputFiles({ name: 'me.png', mimeType: 'image/png', buffer: png(64, 64, [29, 78, 216]) });
    await expect(toast(page, 'Your avatar has been updated')).toBeVisible();
    expect(uploads).toBe(1);
    const me = await (await context.request.get('/v3/sso/me')).json();
    expect(me.avatar_url).toBeTruthy();
    const image = page.getByTestId('avatar-image').locator('img');
    await expect(image).toHaveAttribute('src', me.avatar_url);
    await expect.poll(() => image.evaluate((element: HTMLImageElement) => element.complete && element.naturalWidth)).toBeGreaterThan(0);
    await snap(page, 'account-avatar-uploaded');

    await page.getByRole('button', { name: 'Remove picture' }).click();
    await expect(toast(page, 'Your avatar has been removed')).toBeVisible();
    expect((await (await context.request.get('/v3/sso/me')).json()).avatar_url).toBeNull();
  });
  test('privacy choices are saved, and the data downloads as a JSON file', async ({ page, context, portal }) => {
    const account = shared();
    await signIn(context, portal.platformUrl, account);
    await page.goto('/privacy');
    const marketing = page.getByTestId('privacy-marketing');
    await expect(marketing).toBeVisible();
    const before = (await (await context.request.get('/v3/sso/me/privacy')).json()) as { marketing_emails: boolean; usage_data: boolean };
    await page.getByRole('switch', { name: 'Marketing emails' }).click();
    await expect(toast(page, 'Your privacy settings have been saved')).toBeVisible();
    await expect.poll(async () => (await (await context.request.get('/v3/sso/me/privacy')).json()).marketing_emails).toBe(!before.marketing_emails);
    await page.reload();
    if (before.marketing_emails) await expect(marketing).not.toBeChecked();
    else await expect(marketing).toBeChecked();

    const download = page.waitForEvent('download');
    await page.getByTestId('download-data').click();
    const file = await download;
    expect(file.suggestedFilename()).toMatch(/^cystack-account-data-\d{4}-\d{2}-\d{2}\.json$/);
    const data = JSON.parse(await readFile((await file.path())!, 'utf8'));
    expect(JSON.stringify(data)).toContain(account.email);
    await snap(page, 'privacy-saved');
  });
});
