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
import { operatorsTool } from './cli/operators-tool';
import { runTool } from './cli/run-tool';

runTool(operatorsTool);
