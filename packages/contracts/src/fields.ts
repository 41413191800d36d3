import { z } from 'zod';

/**
 * Fields several schemas share, spread into their objects where they stand (the order of an
 * object's fields is the order the OpenAPI document lists them in).
 */

/** Who a person is, as every view of one begins: id, sign-in email, username (when chosen) and full name. */
export const personFields = { id: z.string(), email: z.string(), username: z.string().nullable(), full_name: z.string() };

/** When a record was made and last changed. */
export const timestampFields = { created_at: z.string(), updated_at: z.string() };

/** Who did what a log entry records: their user id and email. */
export const actorFields = { actor_user_id: z.string().nullable(), actor_email: z.string().nullable() };

/** A numbered page of a list: the page (from 1) and how many items a page holds. */
export const pageQueryFields = { page: z.coerce.number().int().min(1).max(10_000).default(1), page_size: z.coerce.number().int().min(1).max(100).default(20) };

/** A page of a log read newest first by keyset: `cursor` is the previous page's `next_cursor`. */
export const keysetPageQueryFields = { cursor: z.string().max(200).optional(), limit: z.coerce.number().int().min(1).max(200).default(50) };
