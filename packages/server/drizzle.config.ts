import { defineConfig } from 'drizzle-kit';

// `npx drizzle-kit generate --config packages/server/drizzle.config.ts` writes a new SQL migration
// from schema changes; migrations are checked in and applied at start. Each module declares its
// tables in `modules/<m>/tables.ts`; db/schema.ts gathers them all (db/schema.test.ts checks it does).
export default defineConfig({
  dialect: 'postgresql',
  schema: './packages/server/src/db/schema.ts',
  out: './packages/server/src/db/migrations',
});
