import { z } from 'zod';
import { MAX_ANSWER_LENGTH, type CaptchaLogger, type CaptchaVerifier } from './types';

export const RECAPTCHA_STANDARD_URL = 'https://www.google.com/recaptcha/api/siteverify';
export const RECAPTCHA_ENTERPRISE_BASE_URL = 'https://recaptchaenterprise.googleapis.com';

export interface RecaptchaOptions {
  version: 'standard' | 'enterprise';
  /** standard: the secret key; enterprise: the Google Cloud API key. */
  secret: string;
  /** The site key the browser used (enterprise assessments name it). */
  siteKey?: string;
  /** Google Cloud project id (enterprise only). */
  projectId?: string;
  /** Lowest score accepted from score-based (v3 / enterprise) keys. Checkbox keys have no score. */
  minScore?: number;
  /**
   * Hosts our pages are served on: an answer solved on any other site (a token farmed on an
   * attacker's page with our public site key) is refused.
   */
  hostnames?: readonly string[];
  /** Action names our pages execute (score-based keys): an answer for another action is refused. */
  actions?: readonly string[];
  /** Where to ask; tests point this at a local stand-in for Google. */
  endpoint?: string;
  fetch?: typeof fetch;
  timeoutMs?: number;
  logger?: CaptchaLogger;
}

/** The actions the web app executes reCAPTCHA with (CaptchaField's `action`). */
export const RECAPTCHA_ACTIONS = ['login', 'signup', 'recovery', 'captcha'] as const;

const standardAnswer = z.object({ success: z.boolean(), score: z.number().optional(), hostname: z.string().optional(), action: z.string().optional() });
const enterpriseAnswer = z.object({
  tokenProperties: z.object({ valid: z.boolean(), invalidReason: z.string().optional(), hostname: z.string().optional(), action: z.string().optional() }),
  riskAnalysis: z.object({ score: z.number().optional() }).optional(),
});

/**
 * Google reCAPTCHA, checked server-side. Standard keys: siteverify with the secret. Enterprise
 * keys: an assessment in the project (API key auth). Anything short of a clear "valid" — a
 * network error, a timeout, an unexpected answer, a low score — is a failed captcha, never an
 * error of ours (the user can simply try again).
 */
export function createRecaptchaVerifier(options: RecaptchaOptions): CaptchaVerifier {
  if (options.version === 'enterprise' && !options.projectId) {
    throw new Error('reCAPTCHA enterprise needs a project id');
  }
  const fetchImpl = options.fetch ?? fetch;
  const minScore = options.minScore ?? 0.5;
  const timeoutMs = options.timeoutMs ?? 5000;
  const hostnames = options.hostnames ? new Set(options.hostnames.map((host) => host.toLowerCase())) : null;
  const actions = new Set<string>(options.actions ?? RECAPTCHA_ACTIONS);

  /**
   * Where and for what the token was solved. Checkbox (v2) answers carry no action and no
   * score; score-based answers must name one of our actions.
   */
  function solvedHere(hostname: string | undefined, action: string | undefined, score: number | undefined): boolean {
    if (hostnames && !(hostname && hostnames.has(hostname.toLowerCase()))) return false;
    if (action) return actions.has(action);
    return score === undefined;
  }

  async function ask(token: string, ip: string): Promise<boolean> {
    if (options.version === 'standard') {
      const response = await fetchImpl(options.endpoint ?? RECAPTCHA_STANDARD_URL, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ secret: options.secret, response: token, remoteip: ip }).toString(),
        signal: AbortSignal.timeout(timeoutMs),
      });
      if (!response.ok) throw new Error(`siteverify answered ${response.status}`);
      const answer = standardAnswer.parse(await response.json());
      return answer.success && (answer.score === undefined || answer.score >= minScore) && solvedHere(answer.hostname, answer.action, answer.score);
    }
    const base = options.endpoint ?? RECAPTCHA_ENTERPRISE_BASE_URL;
    const url = `${base}/v1/projects/${encodeURIComponent(options.projectId!)}/assessments?key=${encodeURIComponent(options.secret)}`;
    const response = await fetchImpl(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ event: { token, siteKey: options.siteKey, userIpAddress: ip } }),
      signal: AbortSignal.timeout(timeoutMs),
    });
    if (!response.ok) throw new Error(`assessment answered ${response.status}`);
    const answer = enterpriseAnswer.parse(await response.json());
    const score = answer.riskAnalysis?.score;
    const { valid, hostname, action } = answer.tokenProperties;
    return valid && (score === undefined || score >= minScore) && solvedHere(hostname, action, score);
  }

  return {
    provider: 'recaptcha',
    challenge: async () => null,
    async verify(answer, ip) {
      if (!answer || answer.length > MAX_ANSWER_LENGTH) return false;
      try {
        return await ask(answer, ip);
      } catch (error) {
        // The message only: the request URL of an enterprise call carries the API key.
        options.logger?.warn({ reason: error instanceof Error ? `${error.name}: ${error.message}` : 'unknown' }, 'reCAPTCHA check failed');
        return false;
      }
    },
  };
}
