/** The dashboard: sign-ups, sign-ins, failures, lockouts, sessions and token grants over time. */
export function DashboardPage() {
  return null;
}
