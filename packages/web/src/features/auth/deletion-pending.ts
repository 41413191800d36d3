import { ApiError } from '../../lib/api';

/** 403 account.deletion_pending: the credentials were right, the account is scheduled for deletion. */
export interface DeletionPending {
  error: ApiError;
  restoreToken: string;
  deletionDueAt?: string;
}

export function deletionPending(error: unknown): DeletionPending | null {
  if (!(error instanceof ApiError) || error.status !== 403 || error.code !== 'account.deletion_pending') return null;
  const token = error.details?.restore_token;
  if (typeof token !== 'string' || !token) return null;
  const due = error.details?.deletion_due_at;
  return { error, restoreToken: token, deletionDueAt: typeof due === 'string' ? due : undefined };
}
