import { clientHeaders, seedAccounts, signIn } from '../lib/accounts';
import type { BenchContext } from '../lib/context';
import { better, clean, describeLoad, load, loadAverage, perSecond, type LoadSettings } from '../lib/load';
import { alternatingRounds } from '../lib/rounds';
import type { BenchSection, Row } from '../lib/types';

/** GET /v3/sso/me keeps at least this share of bare Fastify's hello-world throughput. */
export const SESSION_READ_TARGET = 0.5;

/** The settings of the throughput section, so the bare baseline is measured the same way. */
const LOAD = { connections: 10, seconds: 5, warmupSeconds: 1 } as const;
/** Rounds of /sso/me, each between two of the hello-world (alternatingRounds). */
const ROUNDS = 3;

/**
 * `GET /v3/sso/me` (`meUrl`, with `headers`) against a hello-world (`helloUrl`) in alternating
 * rounds: the median ratio (each /sso/me round against the hello-world rounds either side), the
 * best round of each for their rows, and the notes saying how it was measured.
 */
export async function meAgainstHelloWorld(settings: Omit<LoadSettings, 'url'>, helloUrl: string, meUrl: string, headers: Record<string, string>) {
  const measured = await alternatingRounds(
    ROUNDS,
    () => load({ ...settings, url: helloUrl }),
    () => load({ ...settings, url: meUrl, headers }),
    (round) => round.rps,
  );
  return {
    bareResult: measured.reference.reduce((a, b) => better(a, b)),
    meResult: measured.subject.reduce((a, b) => better(a, b)),
    ratio: measured.ratio,
    settings: `${settings.connections} connections, ${settings.seconds} s after ${settings.warmupSeconds} s warm-up, alternating rounds (best shown); ${await loadAverage()}`,
    ratioNote: `median of ${measured.ratios.length} rounds, each against the mean of the hello-world rounds just before and after it: ${measured.ratios.map((value) => value.toFixed(2)).join(', ')}`,
  };
}

export const sessionRead: BenchSection = {
  name: 'me',
  title: 'GET /v3/sso/me with a session',
  async run(context: BenchContext): Promise<Row[]> {
    const real = await context.realApp();
    const [account] = await seedAccounts(real, 'me', 1);
    const token = await signIn(real, account!);
    // A GET carries no body, so no content-type.
    const { 'content-type': _json, ...client } = clientHeaders(account!);
    const headers = { ...client, authorization: `Bearer ${token}` };
    const check = await fetch(`${real.url}/v3/sso/me`, { headers });
    if (check.status !== 200) throw new Error(`GET /v3/sso/me answered ${check.status}: ${await check.text()}`);
    // The throughput section's results are not shared: a bare hello-world of our own, started the same way.
    const bare = await context.helloWorld();

    const { bareResult, meResult, ratio, settings, ratioNote } = await meAgainstHelloWorld(LOAD, `${bare.url}/healthz`, `${real.url}/v3/sso/me`, headers);
    return [
      { metric: 'bare Fastify hello-world', value: `${perSecond(bareResult.rps)}, p99 ${bareResult.p99} ms`, status: clean(bareResult) ? 'INFO' : 'FAIL', note: `${describeLoad(bareResult)}; ${settings}` },
      {
        metric: 'GET /v3/sso/me (Bearer session)',
        value: `${perSecond(meResult.rps)}, p99 ${meResult.p99} ms`,
        status: clean(meResult) ? 'INFO' : 'FAIL',
        note: `${describeLoad(meResult)}; the session and its user from the identity cache (no query), NODE_ENV=${real.nodeEnv}, logger off`,
      },
      {
        metric: 'ratio /sso/me / bare',
        value: ratio.toFixed(2),
        target: `≥ ${SESSION_READ_TARGET}`,
        status: ratio >= SESSION_READ_TARGET ? 'PASS' : 'FAIL',
        note: ratioNote,
      },
    ];
  },
};
