import type { TestServer } from './harness';

export type CallMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

export interface CallOptions {
  /** A bearer token. */
  token?: string;
  body?: unknown;
  /** The caller's address; by default each call has its own. */
  ip?: string;
  userAgent?: string;
  host?: string;
}

/** A new address in `prefix` (e.g. `10.9`) at each call, as many people would come from. */
export function visitorAddresses(prefix: string): () => string {
  let visitors = 0;
  return () => {
    visitors += 1;
    return `${prefix}.${Math.floor(visitors / 250)}.${(visitors % 250) + 1}`;
  };
}

/**
 * HTTP calls to a test server, each from its own address (a prefix such as `10.9`, or the file's
 * own address source), so per-IP limits stay out of the way unless a test names an address.
 * `server` is read at each call, since the file's server starts in beforeAll.
 */
export function visitorCalls(server: () => TestServer, addresses: string | (() => string), userAgent = 'vitest') {
  const nextAddress = typeof addresses === 'string' ? visitorAddresses(addresses) : addresses;
  return function call(method: CallMethod, url: string, options: CallOptions = {}) {
    return server().app.inject({
      method,
      url,
      payload: options.body as object | undefined,
      remoteAddress: options.ip ?? nextAddress(),
      headers: {
        'user-agent': options.userAgent ?? userAgent,
        ...(options.host ? { host: options.host } : {}),
        ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
      },
    });
  };
}
