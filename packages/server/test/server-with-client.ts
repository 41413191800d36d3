import { afterAll, beforeAll } from 'vitest';
import { identityClient } from './identity';
import { startTestServer, type TestServer } from './harness';

export type IdentityClient = ReturnType<typeof identityClient>;

/** A test server and the identity client the tests call it with (sign-ups, mailed codes). */
export async function startServerWithClient(options: Parameters<typeof startTestServer>[0] = {}): Promise<{ server: TestServer; client: IdentityClient }> {
  const server = await startTestServer(options);
  return { server, client: identityClient(server.app, server.database) };
}

/**
 * The test server and identity client of the file that asks (as fileDatabase its database): these
 * objects are filled before its first test, and the server closed after its last, after the
 * file's own afterAll.
 */
export function fileServerWithClient(options: Parameters<typeof startTestServer>[0] = {}): { server: TestServer; client: IdentityClient } {
  const file = { server: {} as TestServer, client: {} as IdentityClient };
  beforeAll(async () => {
    const started = await startServerWithClient(options);
    Object.assign(file.server, started.server);
    Object.assign(file.client, started.client);
  });
  afterAll(async () => {
    if ('close' in file.server) await file.server.close();
  });
  return file;
}
