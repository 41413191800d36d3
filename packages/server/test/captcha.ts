import { solveChallenge, type Challenge } from 'altcha-lib';
import { deriveKey as pbkdf2 } from 'altcha-lib/algorithms/pbkdf2';
import { deriveKey as sha } from 'altcha-lib/algorithms/sha';
import type { FastifyInstance } from 'fastify';

/** Solves an ALTCHA challenge the way the widget does and returns the payload it would submit. */
export async function solveAltcha(challenge: Challenge): Promise<string> {
  const deriveKey = challenge.parameters.algorithm.startsWith('PBKDF2/') ? pbkdf2 : sha;
  const solution = await solveChallenge({ challenge, deriveKey, timeout: 10_000 });
  if (!solution) throw new Error('ALTCHA challenge not solved in time');
  return Buffer.from(JSON.stringify({ challenge, solution })).toString('base64');
}

/** Fetches a challenge from the app (GET /v3/sso/captcha/challenge) and solves it. */
export async function solveCaptcha(app: FastifyInstance, path = '/v3/sso/captcha/challenge'): Promise<string> {
  const response = await app.inject({ method: 'GET', url: path });
  if (response.statusCode !== 200) throw new Error(`no captcha challenge: ${response.statusCode} ${response.body}`);
  return solveAltcha(response.json() as Challenge);
}
