/**
 * The operators' count of token grants (the dashboard's `token_grant`), written at most once
 * per `intervalMs` instead of with every grant: the first grant after a quiet interval is
 * counted at once, as before, and the grants that follow within the interval are counted
 * together when it ends. Under load a statement per grant (or per handful of concurrent
 * grants) cost a node as much database work as storing the tokens themselves: on PGlite, a
 * client-credentials grant's share of its worker thread. The count is the operators' hourly
 * figure and already best effort (written without waiting for the disk, a failure only logged):
 * a count at most `intervalMs` late changes no figure anyone reads. `flush` writes what waits
 * (the node is closing).
 */
export function grantCounts(count: () => Promise<void>, intervalMs: number) {
  let waiting = 0;
  let timer: NodeJS.Timeout | undefined;

  function write(): Promise<void> {
    const grants = waiting;
    waiting = 0;
    // The dashboard's counter adds the calls made while its last write runs in one statement.
    return Promise.all(Array.from({ length: grants }, () => count())).then(() => undefined);
  }

  function intervalEnded(): void {
    timer = undefined;
    if (waiting === 0) return;
    void write();
    // What comes next waits for the end of a new interval: the last write was just now.
    startInterval();
  }

  function startInterval(): void {
    timer = setTimeout(intervalEnded, intervalMs);
    timer.unref();
  }

  return {
    /** One grant made. */
    add(): void {
      waiting++;
      if (timer) return;
      void write();
      startInterval();
    },
    /** Writes the grants that wait for their interval's end. */
    flush(): Promise<void> {
      if (timer) clearTimeout(timer);
      timer = undefined;
      return waiting === 0 ? Promise.resolve() : write();
    },
  };
}
