import { z } from 'zod';
import { personFields } from '../fields';
import { sessionSchema } from '../security/schemas';
import { adminReasonSchema } from '../operators/roles';

/**
 * People in the operators' console: a search over every account, a person's page, and the
 * actions support takes on an account (each with a reason for the operator audit log).
 */
export const peopleSearchFields = ['email', 'username', 'name', 'id'] as const;
export const peopleSearchFieldSchema = z.enum(peopleSearchFields);
export type PeopleSearchField = z.infer<typeof peopleSearchFieldSchema>;

export const PEOPLE_SEARCH_MAX_LENGTH = 254;
export const PEOPLE_PAGE_MAX = 50;

/**
 * `q` is the start of an email, a username or a name (case-insensitive, `%` and `_` taken
 * literally), or a whole account id. Without `by` the server reads its shape: an id when it is
 * one, else an email. `cursor` continues a page (the previous answer's `next_cursor`).
 */
export const peopleSearchQuerySchema = z.object({
  q: z.string().trim().min(1).max(PEOPLE_SEARCH_MAX_LENGTH),
  by: peopleSearchFieldSchema.optional(),
  cursor: z.string().max(1000).optional(),
  limit: z.coerce.number().int().min(1).max(PEOPLE_PAGE_MAX).default(20),
});
export type PeopleSearchQuery = z.input<typeof peopleSearchQuerySchema>;

export const personStatuses = ['active', 'pending_activation', 'locked', 'pending_deletion', 'deleted'] as const;
export const personStatusSchema = z.enum(personStatuses);
export type PersonStatus = z.infer<typeof personStatusSchema>;

export const personSummarySchema = z.object({
  ...personFields,
  status: personStatusSchema,
  created_at: z.string(),
});
export type PersonSummary = z.infer<typeof personSummarySchema>;

export const peopleSearchResultSchema = z.object({
  by: peopleSearchFieldSchema,
  people: z.array(personSummarySchema),
  next_cursor: z.string().nullable(),
});
export type PeopleSearchResult = z.infer<typeof peopleSearchResultSchema>;

/** A second factor: its kind and when it was added, never a secret. */
export const personSecondFactorSchema = z.object({
  kind: z.enum(['totp', 'email', 'passkey']),
  name: z.string().nullable(),
  added_at: z.string().nullable(),
});

/** A session as the person's own list shows it, less which one is the caller's. */
export const personSessionSchema = sessionSchema.omit({ current: true });

export const personDetailSchema = personSummarySchema.extend({
  language: z.string(),
  activated_at: z.string().nullable(),
  locked_at: z.string().nullable(),
  deletion_requested_at: z.string().nullable(),
  deletion_due_at: z.string().nullable(),
  second_factors: z.array(personSecondFactorSchema),
  sessions: z.array(personSessionSchema),
  organizations: z.array(z.object({ id: z.string(), name: z.string(), role: z.string() })),
  connected_apps: z.array(z.object({ client_id: z.string(), name: z.string(), scopes: z.array(z.string()) })),
  balances: z.array(z.object({ currency: z.string(), amount: z.string() })),
  orders: z.array(z.object({ id: z.string(), number: z.string(), plan: z.string(), total: z.number(), currency: z.string(), status: z.string(), created_at: z.string() })),
});
export type PersonDetail = z.infer<typeof personDetailSchema>;

export const personParamsSchema = z.object({ userId: z.uuid() });

/** Every action on a person carries a reason (3 to 500 characters) for the operator audit log. */
export const personActionRequestSchema = z.object({ reason: adminReasonSchema });
export type PersonActionRequest = z.infer<typeof personActionRequestSchema>;
