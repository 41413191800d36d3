/**
 * Operator roles from the command line (docs/operators.md): how the first owner is made
 * besides OPERATOR_EMAILS. Against the configured database (DATABASE_URL, or PGlite in
 * DATA_DIR, which it refuses to open while a server holds it); with PORTAL_URL and
 * OPERATOR_API_KEY (an owner's key with the admin:people scope), through the running
 * server's admin API instead.
 *
 *   npm run operators -- grant <email> owner|support|finance [--reason <why>]
 *       the activated account of <email> holds the role (nothing changes when it did already)
 *   npm run operators -- revoke <email> owner|support|finance [--reason <why>]
 *       takes the role away (the last owner's is refused); the account's sessions and operator
 *       keys stop acting as that role at their next call, on every node
 *   npm run operators -- list
 *       every operator and their roles
 *
 * Each change goes into the operator audit log with its reason (from the database mode: as
 * done from the command line, by nobody signed in).
 * Exit codes: 0 done, 1 refused (the message says why), 2 usage.
 */
import { adminOperatorEndpoints, operatorRoles, type Operator, type OperatorRole } from '@portal/contracts';
import { adminApiFrom, callAdmin, type AdminApi } from './cli/admin-api';
import { parseOptions, runTool, UsageError, withDatabase } from './cli/run-tool';
import { createOperatorService, type OperatorService } from './modules/operators';
import { createUserService } from './modules/users';
import { systemClock } from './platform/clock';

const USAGE = 'usage: npm run operators -- grant <email> owner|support|finance [--reason <why>]  |  revoke <email> owner|support|finance [--reason <why>]  |  list';
const DEFAULT_REASON = 'from the command line';

const isRole = (value: string | undefined): value is OperatorRole => (operatorRoles as readonly string[]).includes(value ?? '');
const rolesOf = (operator: Operator) => operator.roles.map((held) => held.role).join(', ');

interface Command {
  name: 'grant' | 'revoke' | 'list';
  email?: string;
  role?: OperatorRole;
  reason: string;
}

function parse(argv: string[]): Command {
  const { values, positionals } = parseOptions(argv, { reason: { type: 'string' } }, { max: 3 });
  const [name, email, role] = positionals;
  const reason = (values.reason ?? DEFAULT_REASON).trim();
  if (reason.length < 3 || reason.length > 500) throw new UsageError('--reason takes 3 to 500 characters');
  if (name === 'list' && email === undefined) return { name, reason };
  if ((name === 'grant' || name === 'revoke') && email?.includes('@')) {
    if (!isRole(role)) throw new UsageError(`the role must be one of ${operatorRoles.join(', ')}`);
    return { name, email: email.toLowerCase(), role, reason };
  }
  throw new UsageError();
}

/** Through the running server: the console's own checks and audit log. */
async function throughServer(api: AdminApi, command: Command): Promise<void> {
  if (command.name === 'grant') {
    const granted = await callAdmin(api, adminOperatorEndpoints.grantRole, { body: { email: command.email, role: command.role, reason: command.reason } });
    console.log(`${granted.email} holds ${rolesOf(granted)}`);
    return;
  }
  const operators = await callAdmin(api, adminOperatorEndpoints.listOperators);
  if (command.name === 'list') return print(operators);
  const operator = operators.find((candidate) => candidate.email === command.email);
  if (!operator) throw new Error(`${command.email} holds no operator role`);
  await callAdmin(api, adminOperatorEndpoints.revokeRole, { params: { userId: operator.user_id, role: command.role }, body: { reason: command.reason } });
  console.log(`${command.email} no longer holds ${command.role}`);
}

function print(operators: Operator[]): void {
  if (operators.length === 0) console.log('no operators yet: npm run operators -- grant <email> owner');
  for (const operator of operators) console.log(`${operator.email}\t${rolesOf(operator)}`);
}

/** On the database: the same service the server uses, and the change recorded as the command line's. */
async function onDatabase(operators: OperatorService, command: Command): Promise<void> {
  const record = (action: string, target: Record<string, string>) =>
    operators.record({ actorUserId: null, actorEmail: null, via: 'command-line', action, summary: `npm run operators -- ${command.name}`, target, reason: command.reason, ip: null, userAgent: null });
  if (command.name === 'grant') {
    const granted = await operators.grant(command.email!, command.role!);
    await record('POST /admin/operators', { userId: granted.user_id, role: command.role! });
    console.log(`${granted.email} holds ${rolesOf(granted)}`);
  } else if (command.name === 'revoke') {
    const userId = await operators.revokeByEmail(command.email!, command.role!);
    await record('DELETE /admin/operators/{userId}/roles/{role}', { userId, role: command.role! });
    console.log(`${command.email} no longer holds ${command.role}`);
  } else {
    print(await operators.list());
  }
}

async function main(): Promise<number> {
  const command = parse(process.argv.slice(2));
  const api = adminApiFrom();
  if (api) {
    await throughServer(api, command);
    return 0;
  }
  // A refusal of the service (no activated account, the last owner) exits 1 with its message (cli/run-tool.ts).
  return withDatabase(async ({ db }) => {
    const users = createUserService(db);
    await onDatabase(createOperatorService({ db, clock: systemClock, findUserByEmail: (address) => users.findByEmail(address) }), command);
    return 0;
  });
}

runTool(USAGE, main);
