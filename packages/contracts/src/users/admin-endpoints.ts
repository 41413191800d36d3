import { peopleSearchQuerySchema, peopleSearchResultSchema, personActionRequestSchema, personDetailSchema, personParamsSchema } from './admin-schemas';
import { endpointIn, operatorGroup } from '../endpoint';

/**
 * People in the operators' console. Every role reads (finance answers questions about
 * orders and balances); support and owners act on accounts, finance never does.
 */
const read = operatorGroup('admin:people', ['owner', 'support', 'finance']);
const act = operatorGroup('admin:people', ['owner', 'support']);

export const search = endpointIn(read, 'GET /admin/people', 'People whose email, username or name starts with the query, or whose id it is: one page, in the order of the field searched (keyset paging)', {
  query: peopleSearchQuerySchema, response: peopleSearchResultSchema, errors: ['admin.cursor_invalid'],
});

export const person = endpointIn(read, 'GET /admin/people/{userId}', "A person's page: status, second factors (kinds, never secrets), sessions, organizations, connected apps, balances and orders", {
  params: personParamsSchema, response: personDetailSchema, errors: ['admin.not_found'],
});

const action = (path: string, summary: string, errors: Array<'admin.not_found' | 'admin.person_already_activated' | 'admin.person_two_factor_off' | 'admin.person_deletion_pending'> = ['admin.not_found']) =>
  endpointIn(act, `POST /admin/people/{userId}/${path}`, summary, { params: personParamsSchema, body: personActionRequestSchema, response: personDetailSchema, errors });

export const lock = action('lock', 'Locks the account: no sign-in, and every session, API key and token refused at once on every node, until unlocked');
export const unlock = action('unlock', 'Unlocks a locked account: the person signs in again');
export const endSessions = action('end-sessions', "Ends every session of the person (and what stood on them: the apps' tokens)");
export const resetSecondFactors = action('reset-second-factors', 'Turns two-step verification off and drops the recovery codes; mails the person', ['admin.not_found', 'admin.person_two_factor_off']);
export const resendActivation = action('resend-activation', 'Mails a new activation link to an account nobody has activated yet', ['admin.not_found', 'admin.person_already_activated']);
export const startDeletion = action('start-deletion', "Schedules the account's deletion (the usual waiting period, cancelled by signing in again); ends its sessions", [
  'admin.not_found',
  'admin.person_deletion_pending',
]);
