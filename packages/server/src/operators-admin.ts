/**
 * Operator roles from the command line, against the configured database (DATABASE_URL, or
 * PGlite in DATA_DIR): how the first owner is made besides OPERATOR_EMAILS (docs/operators.md).
 *
 *   npm run operators -- grant <email> owner|support|finance
 *       the activated account of <email> holds the role (nothing changes when it did already)
 *   npm run operators -- revoke <email> owner|support|finance
 *       takes the role away (the last owner's is refused); the account's sessions and operator
 *       keys stop acting as that role at their next call, on every node
 *   npm run operators -- list
 *       every operator and their roles
 *
 * Exit codes: 0 done, 1 refused (the message says why), 2 usage.
 */
import { operatorRoles, type OperatorRole } from '@portal/contracts';
import { loadConfig } from './config';
import { openDatabase } from './db/client';
import { migrate } from './db/migrate';
import { createOperatorService } from './modules/operators';
import { createUserService } from './modules/users';
import { systemClock } from './platform/clock';
import { AppError } from './platform/errors';

const USAGE = 'usage: npm run operators -- grant <email> owner|support|finance  |  revoke <email> owner|support|finance  |  list';

const isRole = (value: string | undefined): value is OperatorRole => (operatorRoles as readonly string[]).includes(value ?? '');

async function main(): Promise<number> {
  const [command, email, role, ...extra] = process.argv.slice(2);
  const changes = command === 'grant' || command === 'revoke';
  if (!(changes && email?.includes('@') && isRole(role) && extra.length === 0) && !(command === 'list' && email === undefined)) {
    console.error(USAGE);
    return 2;
  }
  const config = loadConfig();
  const database = await openDatabase({ url: config.DATABASE_URL, dataDir: config.DATA_DIR });
  try {
    await migrate(database);
    const users = createUserService(database.db);
    const operators = createOperatorService({ db: database.db, clock: systemClock, findUserByEmail: (address) => users.findByEmail(address) });
    if (command === 'grant') {
      const granted = await operators.grant(email!, role as OperatorRole);
      console.log(`${granted.email} holds ${granted.roles.map((held) => held.role).join(', ')}`);
    } else if (command === 'revoke') {
      await operators.revokeByEmail(email!, role as OperatorRole);
      console.log(`${email!.toLowerCase()} no longer holds ${role}`);
    } else {
      const list = await operators.list();
      if (list.length === 0) console.log('no operators yet: npm run operators -- grant <email> owner');
      for (const operator of list) console.log(`${operator.email}\t${operator.roles.map((held) => held.role).join(', ')}`);
    }
    return 0;
  } catch (error) {
    if (error instanceof AppError) {
      console.error(error.message);
      return 1;
    }
    throw error;
  } finally {
    await database.close();
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  },
);
