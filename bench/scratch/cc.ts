// Scratch: client-credentials grants, portal vs bare, alternating rounds; BENCH_SERVER_PROFILE_DIR to profile.
import { randomBytes } from 'node:crypto';
import { execSync } from 'node:child_process';
import { load } from '../lib/load';
import { mainThreadTimes, processCpuMilliseconds, startBareOidcProcess, startPortalProcess } from '../lib/server-process';

const SECRET = randomBytes(32).toString('base64url');
const basic = `Basic ${Buffer.from(`secret:${SECRET}`).toString('base64')}`;
const pg = process.env.CC_PG === '1';
let databaseUrl: string | undefined;
if (pg) {
  const name = `cc_${Date.now()}`;
  execSync(`psql -h 127.0.0.1 -U postgres -d test -c "create database ${name}"`);
  databaseUrl = `postgres://postgres@127.0.0.1:5432/${name}`;
}
const bare = await startBareOidcProcess(SECRET);
const portal = await startPortalProcess({ databaseUrl, nodeArgs: (process.env.CC_NODE_ARGS ?? '').split(' ').filter(Boolean), env: { OAUTH_CLIENT_SECRETS: `secret=${SECRET}` } });
const run = async (server: typeof bare) => {
  const main0 = mainThreadTimes(server.pid); const cpu0 = processCpuMilliseconds(server.pid);
  const r = await load({ url: `${server.url}/oidc/token`, connections: 10, seconds: 3, warmupSeconds: 1, method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: basic }, requests: [{ method: 'POST', path: '/oidc/token', body: 'grant_type=client_credentials' }] });
  const main1 = mainThreadTimes(server.pid); const cpu1 = processCpuMilliseconds(server.pid);
  return { rps: r.rps, non2xx: r.non2xx, main: (main1.userMs + main1.systemMs - main0.userMs - main0.systemMs) / r.ok, cpu: (cpu1 - cpu0) / r.ok };
};
const rounds = Number(process.env.CC_ROUNDS ?? 4);
const ratios: number[] = [];
try {
  let before = await run(bare);
  for (let i = 0; i < rounds; i++) {
    const p = await run(portal);
    const after = await run(bare);
    const ratio = p.rps / ((before.rps + after.rps) / 2);
    ratios.push(ratio);
    console.log(`portal ${p.rps.toFixed(0)} (main ${p.main.toFixed(3)} cpu ${p.cpu.toFixed(3)} non2xx ${p.non2xx}) bare ${after.rps.toFixed(0)} (main ${after.main.toFixed(3)}) ratio ${ratio.toFixed(3)}`);
    before = after;
  }
  ratios.sort();
  console.log('median', ratios[Math.floor(ratios.length / 2)]!.toFixed(3));
} finally {
  await portal.stop();
  await bare.stop();
}
