import { defineConfig } from 'drizzle-kit';

// `npx drizzle-kit generate --config packages/server/drizzle.config.ts` writes a new SQL migration
// from schema changes; migrations are checked in and applied at start.
export default defineConfig({
  dialect: 'postgresql',
  schema: './packages/server/src/db/schema.ts',
  out: './packages/server/src/db/migrations',
});
