// The guard of outgoing requests to URLs that someone can set (identity providers, outside apps, partners).
export { addressAllowed } from './address';
export { parseEgressAllowList, type EgressRange } from './allow-list';
export { egressFetch, type EgressRequestInit } from './fetch';
export { egressFieldError } from './field-error';
export { egressSend, type EgressSendRequest } from './send';
export { DEFAULT_MAX_RESPONSE_BYTES, DEFAULT_TIMEOUT_MS, egressPolicyFor, systemResolve, type EgressPolicy, type Resolve, type ResolvedAddress } from './policy';
export { EgressRefused } from './refusal';
export { checkEgressTarget, checkEgressUrl, type EgressProblem } from './url';
