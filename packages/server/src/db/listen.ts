import pg from 'pg';

export interface ChannelHandlers {
  message(payload: string): void;
  /**
   * The listening connection dropped, or came back after a drop: what was notified meanwhile
   * is lost, so whatever was kept fresh by it must be treated as stale (called at both ends).
   */
  gap(): void;
}

export interface ListenOptions {
  /**
   * How often the listening connection proves it is alive (a round trip on it), and how long
   * that may take. A connection can die silently (a NAT or a firewall forgets it, the database
   * host vanishes): without this, nobody would notice and revocations would stop arriving.
   */
  keepaliveMs?: number;
}

export interface ChannelSubscription {
  /** False while the listening connection is down; readers must not trust what it keeps fresh. */
  readonly live: boolean;
  close(): Promise<void>;
}

const RECONNECT_DELAY_MS = 1000;
const DEFAULT_KEEPALIVE_MS = 5000;

/**
 * LISTEN on a dedicated PostgreSQL connection (a pooled one would hand it to other queries),
 * reconnecting after a drop. `live` is false from the drop until LISTEN is in place again.
 */
export async function listenOnPostgres(url: string, channel: string, handlers: ChannelHandlers, options: ListenOptions = {}): Promise<ChannelSubscription> {
  const keepaliveMs = options.keepaliveMs ?? DEFAULT_KEEPALIVE_MS;
  let client: pg.Client | undefined;
  let live = false;
  let closed = false;
  let everConnected = false;
  let retry: NodeJS.Timeout | undefined;
  let heartbeat: NodeJS.Timeout | undefined;

  const connect = async (): Promise<void> => {
    // TCP keepalive as well, so the kernel also gives up on a peer that is gone.
    const next = new pg.Client({ connectionString: url, keepAlive: true, keepAliveInitialDelayMillis: keepaliveMs });
    next.on('notification', (message) => {
      if (message.channel === channel) handlers.message(message.payload ?? '');
    });
    next.on('error', () => dropped(next));
    next.on('end', () => dropped(next));
    await next.connect();
    await next.query(`LISTEN ${pg.escapeIdentifier(channel)}`);
    if (closed) {
      await next.end();
      return;
    }
    client = next;
    live = true;
    // Whatever was cached before or during the outage may have missed its notification.
    if (everConnected) handlers.gap();
    everConnected = true;
    beat(next);
  };

  /** One round trip on the listening connection every keepaliveMs; no answer in time counts as a drop. */
  const beat = (which: pg.Client): void => {
    heartbeat = setTimeout(() => {
      if (which !== client || closed) return;
      const late = setTimeout(() => dropped(which), keepaliveMs);
      which.query('select 1').then(
        () => {
          clearTimeout(late);
          if (which === client && !closed) beat(which);
        },
        () => {
          clearTimeout(late);
          dropped(which);
        },
      );
    }, keepaliveMs);
    heartbeat.unref();
  };

  const dropped = (which: pg.Client): void => {
    if (which !== client || closed) return;
    client = undefined;
    live = false;
    handlers.gap();
    which.end().catch(() => undefined);
    scheduleReconnect();
  };

  const scheduleReconnect = (): void => {
    retry = setTimeout(() => {
      connect().catch(() => (closed ? undefined : scheduleReconnect()));
    }, RECONNECT_DELAY_MS);
    retry.unref();
  };

  await connect();
  return {
    get live() {
      return live;
    },
    async close() {
      closed = true;
      live = false;
      clearTimeout(retry);
      clearTimeout(heartbeat);
      await client?.end().catch(() => undefined);
      client = undefined;
    },
  };
}
