/**
 * The least a password sign-in server can do, for the `deployed` section's reference row: a
 * bare Fastify that logs each request at info (to stdout as the portal does: stdoutLog), checks the password on the portal's own argon2
 * threads (ARGON2_PARAMS) and answers a new session token (32 random bytes, its SHA-256 taken as
 * the portal stores it) in a cookie and the body. No database, hooks, limits or validation: what
 * it keeps of raw verifications is the ceiling of any sign-in over HTTP on this machine.
 */
import Fastify from 'fastify';
import { createArgon2Threads } from '../../packages/server/src/platform/argon2-threads';
import { randomToken, sha256 } from '../../packages/server/src/platform/crypto';
import { stdoutLog } from '../../packages/server/src/platform/logger';
import { ARGON2_PARAMS } from '../../packages/server/src/platform/passwords';

const argon2 = createArgon2Threads();
// The one password it accepts: the bench's requests send it.
const hash = await argon2.hash(process.env.BARE_SIGN_IN_PASSWORD ?? '', ARGON2_PARAMS);
const app = Fastify({ logger: { level: 'info', stream: stdoutLog() } });
app.get('/healthz', async () => ({ status: 'ok' }));
app.post('/v3/sso/auth', async (request, reply) => {
  const { password } = request.body as { password?: unknown };
  if (typeof password !== 'string' || !(await argon2.verify(hash, password))) return reply.code(401).send({ error: 'wrong password' });
  // The token and the hash the portal would store of it (sessions/service.ts), made the same way.
  const token = randomToken();
  sha256(token);
  reply.header('set-cookie', `session=${token}; Path=/; HttpOnly; Secure; SameSite=Lax`);
  return { token };
});
await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
