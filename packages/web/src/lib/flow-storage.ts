/**
 * What the sign-in, sign-up and recovery pages hand each other: the identifier typed on
 * the first sign-in step, the email a sign-up went to. Kept in router state and in
 * sessionStorage (this tab only), so a reload of the second step still knows them.
 */

const IDENTIFIER_KEY = 'portal.login.identifier';
const SIGNUP_EMAIL_KEY = 'portal.register.email';

function store(key: string, value: string | null): void {
  try {
    if (value) sessionStorage.setItem(key, value);
    else sessionStorage.removeItem(key);
  } catch {
    // storage off (private mode, quota): router state still carries the value
  }
}

function recall(key: string): string {
  try {
    return sessionStorage.getItem(key) ?? '';
  } catch {
    return '';
  }
}

export const rememberIdentifier = (value: string | null) => store(IDENTIFIER_KEY, value);
export const recalledIdentifier = () => recall(IDENTIFIER_KEY);
export const rememberSignupEmail = (value: string | null) => store(SIGNUP_EMAIL_KEY, value);
export const recalledSignupEmail = () => recall(SIGNUP_EMAIL_KEY);

/** A string value from router state (`location.state`), if the previous page left one. */
export function stateValue(state: unknown, name: string): string | undefined {
  const value = state && typeof state === 'object' ? (state as Record<string, unknown>)[name] : undefined;
  return typeof value === 'string' && value ? value : undefined;
}
