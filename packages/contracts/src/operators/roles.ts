import { z } from 'zod';

/**
 * Operators: people who run the portal. A role on an account (an account may hold several);
 * `owner` may do everything, `support` looks after people and apps, `finance` after money.
 */
export const operatorRoles = ['owner', 'support', 'finance'] as const;
export type OperatorRole = (typeof operatorRoles)[number];

/** What an operator API key may reach: each admin endpoint names the one it needs. */
export const adminScopes = [
  'admin:dashboard',
  'admin:people',
  'admin:apps',
  'admin:keys',
  'admin:organizations',
  'admin:billing',
  'admin:wallet',
  'admin:webhooks',
  'admin:audit',
] as const;
export type AdminScope = (typeof adminScopes)[number];

/** The reason every changing admin call carries (it goes into the operator audit log). */
export const ADMIN_REASON_MIN = 3;
export const ADMIN_REASON_MAX = 500;

/** The `reason` field of a changing admin call's body: trimmed, 3 to 500 characters. */
export const adminReasonSchema = z.string().trim().min(ADMIN_REASON_MIN).max(ADMIN_REASON_MAX);
export const operatorRoleSchema = z.enum(operatorRoles);
export const adminScopeSchema = z.enum(adminScopes);
