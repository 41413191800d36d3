import { createOrganizationService } from '../src/modules/organizations/service';
import { startServerWithClient } from './server-with-client';

/** A test server, its identity client, and the organizations service over its database (to set organizations up directly). */
export async function startOrganizationsTest() {
  const { server, client } = await startServerWithClient();
  return { server, client, organizations: createOrganizationService({ db: server.database.db, clock: { now: () => new Date() } }) };
}
