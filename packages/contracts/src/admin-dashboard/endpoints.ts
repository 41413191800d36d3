import { dashboardQuerySchema, dashboardSchema } from './schemas';
import { endpoint } from '../endpoint';

/** The operators' dashboard (the console's first page): every operator role reads it. */
export const dashboard = endpoint({
  method: 'GET',
  path: '/admin/dashboard',
  tag: 'admin',
  auth: { operator: ['owner', 'support', 'finance'], adminScope: 'admin:dashboard' },
  summary: 'Sign-ups, sign-ins, failed sign-ins, lockouts, active sessions and token grants, per hour over 24 hours or per day over 30 days',
  query: dashboardQuerySchema,
  response: dashboardSchema,
});
