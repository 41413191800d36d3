import { identityClient } from './identity';
import { startTestServer, type TestServer } from './harness';

export type IdentityClient = ReturnType<typeof identityClient>;

/** A test server and the identity client the tests call it with (sign-ups, mailed codes). */
export async function startServerWithClient(options: Parameters<typeof startTestServer>[0] = {}): Promise<{ server: TestServer; client: IdentityClient }> {
  const server = await startTestServer(options);
  return { server, client: identityClient(server.app, server.database) };
}
