import type { Agent } from 'undici';
import { guardedLookup } from './lookup';
import { DEFAULT_TIMEOUT_MS, type EgressPolicy } from './policy';

type Undici = typeof import('undici');
let undici: Promise<Undici> | undefined;
/**
 * The undici package, loaded at the first request: when it loads before Node's own fetch has
 * installed its process-wide dispatcher, it installs its own Agent there, and Node's fetch (a
 * different undici inside Node) then fails every request ("fetch failed"). Reading `Response`
 * first loads Node's undici, which installs its dispatcher (oidc-provider does the same). A
 * static import would not do: a bundle hoists it above everything else.
 */
export function loadUndici(): Promise<Undici> {
  void globalThis.Response;
  return (undici ??= import('undici'));
}

/** One connection pool per policy, its every connection through the guarded lookup. */
const agents = new WeakMap<EgressPolicy, Agent>();
export function agentFor(policy: EgressPolicy, { Agent }: Undici): Agent {
  let agent = agents.get(policy);
  if (!agent) {
    const timeout = policy.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    agent = new Agent({ connect: { lookup: guardedLookup(policy), timeout }, headersTimeout: timeout, bodyTimeout: timeout });
    agents.set(policy, agent);
  }
  return agent;
}

