import { endpoint } from '../endpoint';
import * as firstPaint from '../first-paint';

export const logout = endpoint({
  ...firstPaint.logout,
  tag: 'sessions',
  auth: 'optional',
  summary: 'Sign out: revoke this session and clear its cookies',
  response: null,
});
