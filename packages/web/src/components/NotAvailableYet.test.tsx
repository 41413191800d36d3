import { cleanup, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { initI18n } from '../lib/i18n';
import { fakeApi } from '../test/fake-api';
import { renderAt } from '../test/render';

/** Routes whose features are not built say so (README "Not available yet"). */
const NOT_BUILT = [
  '/login/sso',
  '/sso/redirect',
  '/callback-app',
];

beforeEach(() => {
  initI18n();
  fakeApi().on('GET /sso/me', { status: 401, body: { code: 'unauthorized', message: 'Session expired, please login again' } });
});
afterEach(cleanup);

describe('routes not built yet', () => {
  for (const path of NOT_BUILT) {
    it(`${path} shows "Not available yet"`, async () => {
      renderAt(path);
      expect(await screen.findByTestId('not-available-yet')).toHaveProperty('textContent', expect.stringContaining('Not available yet'));
    });
  }

  it('a built page does not', async () => {
    renderAt('/forgot');
    await screen.findByRole('heading', { level: 1 });
    expect(screen.queryByTestId('not-available-yet')).toBeNull();
  });
});
