import { describe, expect, it } from 'vitest';
import { captchaTargetOrigin } from './CaptchaPage';

describe('where /captcha may post its answer', () => {
  const allowed = ['https://app.test'];
  it('an allowed origin, or this one', () => {
    expect(captchaTargetOrigin('?origin=https%3A%2F%2Fapp.test', allowed, 'https://id.test')).toBe('https://app.test');
    expect(captchaTargetOrigin('?origin=https%3A%2F%2Fid.test%2Fx', allowed, 'https://id.test')).toBe('https://id.test');
  });
  it('nowhere else', () => {
    expect(captchaTargetOrigin('?origin=https%3A%2F%2Fevil.test', allowed, 'https://id.test')).toBeNull();
    expect(captchaTargetOrigin('', allowed, 'https://id.test')).toBeNull();
  });
});
