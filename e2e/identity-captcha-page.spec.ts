import { snap } from './support/helpers';
import { expect, test } from './support/mail';

/** The stand-alone captcha page (/captcha): the proof of work solved in the browser, its answer to copy. */

test.describe('stand-alone captcha page', () => {
  test('solves in the browser and shows the answer to copy', async ({ page }) => {
    await page.goto('/captcha');
    await page.getByRole('button', { name: 'Continue' }).click();
    await expect(page.getByTestId('captcha-token')).not.toBeEmpty({ timeout: 20_000 });
    const token = await page.getByTestId('captcha-token').inputValue();
    const payload = JSON.parse(Buffer.from(token, 'base64').toString('utf8')) as { challenge?: unknown; solution?: unknown };
    expect(payload.challenge).toBeTruthy();
    expect(payload.solution).toBeTruthy();
    await snap(page, 'identity-captcha-solved');
  });
});
