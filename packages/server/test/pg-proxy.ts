import { createServer, connect, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';

/**
 * A TCP proxy in front of PostgreSQL that can make the LISTEN connections behind it go
 * silent: bytes stop flowing both ways while the sockets stay open, as when a NAT or a
 * firewall forgets a connection. Other connections (the pool's queries) keep working.
 */
export interface PgProxy {
  /** `url` with its host and port replaced by the proxy's. */
  url: string;
  /** Silences every connection that has sent LISTEN so far (later ones flow normally). */
  silenceListeners(): number;
  close(): Promise<void>;
}

interface Pair {
  client: Socket;
  upstream: Socket;
  listening: boolean;
  silent: boolean;
}

export async function startPgProxy(databaseUrl: string): Promise<PgProxy> {
  const target = new URL(databaseUrl);
  const pairs = new Set<Pair>();
  const server: Server = createServer((client) => {
    const upstream = connect(Number(target.port || 5432), target.hostname);
    const pair: Pair = { client, upstream, listening: false, silent: false };
    pairs.add(pair);
    client.on('data', (chunk: Buffer) => {
      if (pair.silent) return;
      if (chunk.includes('LISTEN ')) pair.listening = true;
      upstream.write(chunk);
    });
    upstream.on('data', (chunk: Buffer) => {
      if (!pair.silent) client.write(chunk);
    });
    const end = () => {
      pairs.delete(pair);
      client.destroy();
      upstream.destroy();
    };
    client.on('close', end).on('error', end);
    upstream.on('close', end).on('error', end);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const proxied = new URL(databaseUrl);
  proxied.hostname = '127.0.0.1';
  proxied.port = String((server.address() as AddressInfo).port);
  return {
    url: proxied.toString(),
    silenceListeners() {
      let count = 0;
      for (const pair of pairs) {
        if (pair.listening) {
          pair.silent = true;
          count++;
        }
      }
      return count;
    },
    async close() {
      for (const pair of pairs) {
        pair.client.destroy();
        pair.upstream.destroy();
      }
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
