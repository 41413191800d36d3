/**
 * `npm run operators` (usage in ../operators-admin.ts): on the configured database, or through
 * a running server's admin API.
 */
import { adminOperatorEndpoints, operatorRoles, type Operator, type OperatorRole } from '@portal/contracts';
import { adminApiFrom, callAdmin, type AdminApi } from './admin-api';
import { parseOptions, UsageError, withDatabase, type OperatorTool, type ToolIo } from './run-tool';
import { createOperatorService, type OperatorService } from '../modules/operators';
import { createUserService } from '../modules/users';
import { systemClock } from '../platform/clock';

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
async function throughServer(io: ToolIo, api: AdminApi, command: Command): Promise<void> {
  if (command.name === 'grant') {
    const granted = await callAdmin(api, adminOperatorEndpoints.grantRole, { body: { email: command.email, role: command.role, reason: command.reason } });
    io.out(`${granted.email} holds ${rolesOf(granted)}`);
    return;
  }
  const operators = await callAdmin(api, adminOperatorEndpoints.listOperators);
  if (command.name === 'list') return print(io, operators);
  const operator = operators.find((candidate) => candidate.email === command.email);
  if (!operator) throw new Error(`${command.email} holds no operator role`);
  await callAdmin(api, adminOperatorEndpoints.revokeRole, { params: { userId: operator.user_id, role: command.role }, body: { reason: command.reason } });
  io.out(`${command.email} no longer holds ${command.role}`);
}

function print(io: ToolIo, operators: Operator[]): void {
  if (operators.length === 0) io.out('no operators yet: npm run operators -- grant <email> owner');
  for (const operator of operators) io.out(`${operator.email}\t${rolesOf(operator)}`);
}

/** On the database: the same service the server uses, and the change recorded as the command line's, in one transaction with it. */
async function onDatabase(io: ToolIo, operators: OperatorService, command: Command): Promise<void> {
  const row = (action: string, target: Record<string, string>) => ({ actorUserId: null, actorEmail: null, via: 'command-line', action, summary: `npm run operators -- ${command.name}`, target, reason: command.reason, ip: null, userAgent: null });
  if (command.name === 'grant') {
    const granted = await operators.recorded(() => operators.grant(command.email!, command.role!), (answer) => row('POST /admin/operators', { userId: answer.user_id, role: command.role! }));
    io.out(`${granted.email} holds ${rolesOf(granted)}`);
  } else if (command.name === 'revoke') {
    await operators.recorded(() => operators.revokeByEmail(command.email!, command.role!), (userId) => row('DELETE /admin/operators/{userId}/roles/{role}', { userId, role: command.role! }));
    io.out(`${command.email} no longer holds ${command.role}`);
  } else {
    print(io, await operators.list());
  }
}

async function main(argv: string[], io: ToolIo): Promise<number> {
  const command = parse(argv);
  const api = adminApiFrom(io.env);
  if (api) {
    await throughServer(io, api, command);
    return 0;
  }
  // A refusal of the service (no activated account, the last owner) exits 1 with its message (cli/run-tool.ts).
  // The role's change and its audit row commit together, as through the server (withDatabase's database is scoped).
  return withDatabase(io.env, async ({ db }) => {
    const users = createUserService(db);
    await onDatabase(io, createOperatorService({ db, clock: systemClock, findUserByEmail: (address) => users.findByEmail(address) }), command);
    return 0;
  });
}

export const operatorsTool: OperatorTool = { usage: USAGE, main };
