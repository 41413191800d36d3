import autocannon from 'autocannon';

/** One autocannon run against the bench's servers: a warm-up, then the measured seconds. */
export interface LoadSettings {
  url: string;
  connections: number;
  seconds: number;
  warmupSeconds: number;
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  /** Requests each connection cycles through, in turn (e.g. one sign-in per account). */
  requests?: Array<{ method: 'GET' | 'POST'; path: string; headers?: Record<string, string>; body?: string }>;
  /** Called when the measured run starts (after the warm-up). */
  onStart?: () => void;
  /**
   * Run autocannon in a worker thread (the default): keeps it off the event loop of a server
   * running in this process. For a server in a process of its own, false: this process is
   * idle then, and a worker would boot (~0.4 s of CPU) after 'start' has already fired, so the
   * measured window's CPU would count its boot as load generation.
   */
  inWorker?: boolean;
}

export interface LoadResult {
  /** Successful (2xx) answers per second of the measured run. */
  rps: number;
  /** 2xx answers in the measured run. */
  ok: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
  /** Non-2xx answers by status code, e.g. { 429: 3 }. */
  statusCodes: Record<string, number>;
}

/**
 * Runs autocannon (in a worker thread unless told otherwise: off the event loop of a server in
 * this process) and counts only 2xx answers completed in the measured window, so a refusal
 * never passes for throughput.
 */
export async function load(settings: LoadSettings): Promise<LoadResult> {
  // `warmup` is an autocannon option @types/autocannon does not know yet.
  const options: autocannon.Options & { warmup: { connections: number; duration: number } } = {
    url: settings.url,
    method: settings.method ?? 'GET',
    headers: settings.headers,
    ...(settings.requests ? { requests: settings.requests } : {}),
    connections: settings.connections,
    pipelining: 1,
    duration: settings.seconds,
    warmup: { connections: settings.connections, duration: settings.warmupSeconds },
    workers: settings.inWorker === false ? 0 : 1,
  };
  // Without a callback autocannon returns its tracker (an EventEmitter) made thenable; the types say
  // Promise only. With a warm-up, that tracker is the measured run's: its 'start' comes after the warm-up.
  const run = autocannon(options) as Promise<autocannon.Result> & NodeJS.EventEmitter;
  if (settings.onStart) run.on('start', settings.onStart);
  const result = await run;
  const statusCodes: Record<string, number> = {};
  for (const [code, stats] of Object.entries(result.statusCodeStats ?? {})) {
    if (!code.startsWith('2')) statusCodes[code] = (stats as { count: number }).count;
  }
  return {
    rps: result['2xx'] / (result.duration || settings.seconds),
    ok: result['2xx'],
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
    statusCodes,
  };
}

/** The better of two rounds (more successful answers per second). */
export function better<T extends { rps: number }>(a: T | undefined, b: T): T {
  return a && a.rps >= b.rps ? a : b;
}

export const perSecond = (rate: number, unit = 'req/s') => `${Math.round(rate).toLocaleString('en-US')} ${unit}`;

/** "p99 12 ms; 3 errors, 5 non-2xx (429 ×5)", or just the latency when all went well. */
export function describeLoad(result: LoadResult): string {
  const codes = Object.entries(result.statusCodes).map(([code, count]) => `${code} ×${count}`).join(', ');
  const problems = result.errors || result.non2xx ? `; ${result.errors} errors, ${result.non2xx} non-2xx${codes ? ` (${codes})` : ''}` : '; 0 non-2xx';
  return `p50 ${result.p50} ms, p99 ${result.p99} ms${problems}`;
}

export const clean = (result: LoadResult) => result.errors === 0 && result.non2xx === 0;

/**
 * CPU time (user + system, every thread of this process: libuv's pool, autocannon's worker)
 * spent in the `seconds` after begin(): what a run cost, whatever share of the machine other
 * work left it.
 */
export function cpuWindow(seconds: number): { begin: () => void; milliseconds: () => Promise<number> } {
  let started = false;
  let resolve: (ms: number) => void = () => undefined;
  const done = new Promise<number>((r) => (resolve = r));
  return {
    begin() {
      if (started) return;
      started = true;
      const before = process.cpuUsage();
      setTimeout(() => {
        const used = process.cpuUsage(before);
        resolve((used.user + used.system) / 1000);
      }, seconds * 1000);
    },
    milliseconds() {
      if (!started) throw new Error('the measured run never started');
      return done;
    },
  };
}

/** `cat /proc/loadavg`'s first three numbers, or what os.loadavg() says elsewhere. */
export async function loadAverage(): Promise<string> {
  const { loadavg, availableParallelism } = await import('node:os');
  return `load average ${loadavg().map((n) => n.toFixed(2)).join(' ')} on ${availableParallelism()} cores`;
}
