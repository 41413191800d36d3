import pg from 'pg';

export interface ChannelHandlers {
  message(payload: string): void;
  /** The listening connection dropped: what was notified meanwhile is lost. */
  gap(): void;
}

export interface ChannelSubscription {
  /** False while the listening connection is down; readers must not trust what it keeps fresh. */
  readonly live: boolean;
  close(): Promise<void>;
}

const RECONNECT_DELAY_MS = 1000;

/**
 * LISTEN on a dedicated PostgreSQL connection (a pooled one would hand it to other queries),
 * reconnecting after a drop. `live` is false from the drop until LISTEN is in place again.
 */
export async function listenOnPostgres(url: string, channel: string, handlers: ChannelHandlers): Promise<ChannelSubscription> {
  let client: pg.Client | undefined;
  let live = false;
  let closed = false;
  let retry: NodeJS.Timeout | undefined;

  const connect = async (): Promise<void> => {
    const next = new pg.Client({ connectionString: url });
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
      await client?.end().catch(() => undefined);
      client = undefined;
    },
  };
}
