import type { fetch as UndiciFetch } from 'undici';
import { agentFor, loadUndici } from './agent';
import { DEFAULT_MAX_RESPONSE_BYTES, DEFAULT_TIMEOUT_MS, type EgressPolicy } from './policy';
import { EgressRefused, refusalIn } from './refusal';
import { checkEgressUrl } from './url';

/** Statuses whose response has no body (the Response constructor refuses one). */
const NULL_BODY = new Set([101, 103, 204, 205, 304]);

/** The response with a body that errors once it passes `limit` bytes (announced or counted). */
function capped(response: Awaited<ReturnType<typeof UndiciFetch>>, limit: number, host: string): Response {
  const tooLarge = () => new EgressRefused('too_large', `the answer of ${host} is larger than ${limit} bytes`);
  const init = { status: response.status, statusText: response.statusText, headers: new Headers([...response.headers]) };
  if (!response.body || NULL_BODY.has(response.status)) return new Response(null, init);
  const announced = Number(response.headers.get('content-length') ?? 0);
  if (announced > limit) {
    void response.body.cancel().catch(() => undefined);
    throw tooLarge();
  }
  let received = 0;
  const counter = new TransformStream<Uint8Array, Uint8Array>({
    transform(chunk, controller) {
      received += chunk.byteLength;
      if (received > limit) controller.error(tooLarge());
      else controller.enqueue(chunk);
    },
  });
  // undici's stream is Node's web stream, typed apart from the global one.
  return new Response((response.body as unknown as ReadableStream<Uint8Array>).pipeThrough(counter), init);
}

/** What fetch takes, loosely typed so callers' own options (openid-client's, oidc-provider's) fit; `redirect` is always 'manual'. */
export type EgressRequestInit = Omit<RequestInit, 'body' | 'redirect' | 'headers'> & { body?: unknown; redirect?: string; headers?: HeadersInit | Record<string, string> };

/**
 * fetch for a URL that an admin, a client or a person set: the URL's form and scheme checked,
 * every address the name resolves to checked at connection time (and connected to as checked),
 * redirects not followed (a 3xx is answered as is), the whole exchange limited in time and the
 * answer in size. A refusal throws EgressRefused (nothing was sent).
 */
export async function egressFetch(url: string | URL, init: EgressRequestInit = {}, policy: EgressPolicy): Promise<Response> {
  const target = new URL(url);
  const problem = checkEgressUrl(target, policy);
  if (problem) throw new EgressRefused(problem, `requests to ${target.protocol}//${target.host} are refused (${problem})`);
  const signals = [AbortSignal.timeout(policy.timeoutMs ?? DEFAULT_TIMEOUT_MS), ...(init.signal ? [init.signal] : [])];
  const library = await loadUndici();
  const response = await library
    .fetch(target, {
      ...(init as Parameters<typeof UndiciFetch>[1]),
      signal: AbortSignal.any(signals),
      redirect: 'manual',
      dispatcher: agentFor(policy, library),
    })
    .catch((error: unknown) => {
      throw refusalIn(error) ?? error;
    });
  return capped(response, policy.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES, target.host);
}
