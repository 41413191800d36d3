export { CODE_MAX_ATTEMPTS, createOneTimeTokens, type IssueOptions, type OneTimeTokens } from './service';
export type { OneTimeTokenRow } from './queries';
