import { createContext, use } from 'react';
import type { AdminMe } from '@portal/contracts';

/** The signed-in operator, for the console's pages (which actions their roles allow). */
export const OperatorContext = createContext<AdminMe | null>(null);

export function useOperator(): AdminMe {
  const operator = use(OperatorContext);
  if (!operator) throw new Error('useOperator() outside the operators console');
  return operator;
}

/** Whether the operator may move money (refunds, promo codes, licences, payouts): owners and finance. */
export function useMovesMoney(): boolean {
  const { roles } = useOperator();
  return roles.includes('owner') || roles.includes('finance');
}
