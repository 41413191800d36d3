import { describe, expect, it } from 'vitest';
import { describeClient } from './client-info';

const CHROME_ON_LINUX = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36';

describe('describeClient', () => {
  it('names the browser and system from the User-Agent, and keeps the address', () => {
    expect(describeClient(CHROME_ON_LINUX, '203.0.113.9')).toMatchObject({ browser: 'Chrome 130', device: 'Linux', ip: '203.0.113.9' });
  });

  it('gives the same answer for an agent it has already read, with each call its own address', () => {
    const first = describeClient(CHROME_ON_LINUX, '198.51.100.1');
    const again = describeClient(CHROME_ON_LINUX, '198.51.100.2');
    expect(again.browser).toBe(first.browser);
    expect(again.ip).toBe('198.51.100.2');
  });

  it('leaves browser and device empty for no or junk agents', () => {
    expect(describeClient(undefined, '127.0.0.1')).toMatchObject({ browser: null, device: null });
    expect(describeClient('x'.repeat(300), '127.0.0.1')).toMatchObject({ browser: null, device: null });
  });
});
