import { pgTable, text } from 'drizzle-orm/pg-core';
import { bytea, updatedAt } from '../../db/columns';
import { personId } from '../users/tables';

/** Profile pictures, resized on upload and kept in the database so every node serves them. */
export const avatars = pgTable('avatars', {
  userId: personId().primaryKey(),
  content: bytea('content').notNull(),
  contentType: text('content_type').notNull(),
  updatedAt: updatedAt(),
});
