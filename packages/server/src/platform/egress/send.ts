import { agentFor, loadUndici } from './agent';
import { DEFAULT_MAX_RESPONSE_BYTES, DEFAULT_TIMEOUT_MS, type EgressPolicy } from './policy';
import { EgressRefused, refusalIn } from './refusal';
import { checkEgressUrl, type EgressProblem } from './url';

/** A request whose answer matters only by its status (a webhook attempt). */
export interface EgressSendRequest {
  method: 'POST' | 'PUT';
  headers: Record<string, string>;
  body: string;
}

/** checkEgressUrl's answer by URL string, per policy: the many requests to one endpoint parse and check it once. */
const checked = new WeakMap<EgressPolicy, Map<string, { url: URL; problem: EgressProblem | null }>>();
function checkedUrl(raw: string, policy: EgressPolicy) {
  let cache = checked.get(policy);
  if (!cache) checked.set(policy, (cache = new Map()));
  let entry = cache.get(raw);
  if (!entry) {
    if (cache.size >= 1000) cache.clear();
    let url: URL | undefined;
    try {
      url = new URL(raw);
    } catch {
      // checkEgressUrl names the problem.
    }
    entry = { url: url ?? new URL('invalid:'), problem: url ? checkEgressUrl(url, policy) : 'invalid' };
    cache.set(raw, entry);
  }
  return entry;
}

/**
 * Sends one request through the egress guard and answers its status: the same checks as
 * egressFetch (the URL's form and scheme; every address checked in the connection's lookup and
 * connected to as checked; no redirects, a 3xx is answered as is; the whole exchange within
 * the policy's time), without fetch's streams. The answer's body is read and dropped up to the
 * policy's size (then the connection is closed), so the connection is kept for the next request:
 * one connection carries a node's many deliveries to one receiver. A refusal throws EgressRefused
 * (nothing was sent); a timeout throws an error named TimeoutError.
 */
export async function egressSend(url: string, request: EgressSendRequest, policy: EgressPolicy): Promise<{ status: number }> {
  const { url: target, problem } = checkedUrl(url, policy);
  if (problem) throw new EgressRefused(problem, `requests to ${target.protocol}//${target.host} are refused (${problem})`);
  const timeoutMs = policy.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const agent = agentFor(policy, await loadUndici());
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(Object.assign(new Error(`no answer from ${target.host} within ${timeoutMs} ms`), { name: 'TimeoutError' })), timeoutMs);
  try {
    const answer = await agent.request({ origin: target.origin, path: `${target.pathname}${target.search}`, method: request.method, headers: request.headers, body: request.body, signal: controller.signal });
    await answer.body.dump({ limit: policy.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES });
    return { status: answer.statusCode };
  } catch (error) {
    if (controller.signal.aborted) throw controller.signal.reason;
    throw refusalIn(error) ?? error;
  } finally {
    clearTimeout(timer);
  }
}
