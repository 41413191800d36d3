import type { UserRow } from '../users';
import type { SignInDependencies, SignInMembership } from './pipeline';

export interface MembershipWithAccountDependencies {
  /**
   * The account an identifier names and its organization membership, in one statement
   * (modules/company-sso, bound in app.ts): what a password sign-in's identify step reads.
   */
  accountWithMembership?: (identifier: string) => Promise<{ user: UserRow; membership: SignInMembership | undefined } | undefined>;
}

/**
 * A password sign-in reads its account and the account's organization membership together,
 * one round trip instead of two. The membership is kept with that very row, which only this
 * sign-in holds: the pipeline's company SSO step takes it from there and asks the database
 * only for accounts another way read (a second step, a passkey, a restore). Read before the
 * password is checked rather than after: a membership that changes meanwhile raced the
 * sign-in either way.
 */
export function membershipWithAccount(deps: Pick<SignInDependencies, 'membershipOf'> & MembershipWithAccountDependencies) {
  const { membershipOf, accountWithMembership } = deps;
  const readWithAccount = new WeakMap<UserRow, SignInMembership | undefined>();
  return {
    findAccount:
      accountWithMembership &&
      (async (identifier: string): Promise<UserRow | undefined> => {
        const found = await accountWithMembership(identifier);
        if (found) readWithAccount.set(found.user, found.membership);
        return found?.user;
      }),
    membershipOf: membershipOf && (async (user: UserRow) => (readWithAccount.has(user) ? readWithAccount.get(user) : membershipOf(user))),
  };
}
