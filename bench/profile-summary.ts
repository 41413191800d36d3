/**
 * Where a V8 CPU profile's time went, by package and by function (self time), idle left out:
 *
 *   node --import tsx bench/profile-summary.ts <file.cpuprofile> [--from=s] [--to=s] [--min=%]
 *
 * For the profiles `BENCH_SERVER_PROFILE_DIR` has the bench's servers write (docs/benchmarks.md).
 * A profile spans a server's whole run, so `--from` and `--to` (seconds from the profile's
 * start) keep the samples of one phase, e.g. after the server's start-up. `--min` hides the
 * rows under that share (1 % unless given).
 *
 * A sample stands for the wall time since the sample before it. A thread that waited for a core
 * (both cores busy under load) lends that wait to where it resumed, often a system call such as
 * `writev`: read such a row against the thread's CPU time, which the bench prints.
 */
import { existsSync, readFileSync } from 'node:fs';

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
}

interface CpuProfile {
  nodes: Array<{ id: number; callFrame: CallFrame }>;
  samples: number[];
  /** Microseconds since the sample before (the first: since the profile's start). */
  timeDeltas: number[];
}

/** The package a frame's script belongs to: `name` or `@scope/name` under node_modules, `node:...`, our file under src/, or V8's own entry. */
function packageOf(frame: CallFrame): string {
  const { url } = frame;
  if (!url) return frame.functionName || '(native)';
  if (url.startsWith('node:')) return url;
  const modules = url.lastIndexOf('node_modules/');
  if (modules >= 0) {
    const [first, second] = url.slice(modules + 'node_modules/'.length).split('/');
    return first!.startsWith('@') ? `${first}/${second}` : first!;
  }
  const source = url.indexOf('/src/');
  return source >= 0 ? `ours: ${url.slice(source + '/src/'.length)}` : url;
}

/** A function with where it is; V8's own entries (the garbage collector, a system call such as `writev`) by name alone. */
const functionOf = (frame: CallFrame) => (frame.url ? `${frame.functionName || '(anonymous)'} ${packageOf(frame)}:${frame.lineNumber + 1}` : packageOf(frame));

/** Self time in milliseconds by package and by function, between `fromMs` and `toMs` after the profile's start, idle left out. */
function summarize(profile: CpuProfile, fromMs = 0, toMs = Infinity): { totalMs: number; byPackage: Map<string, number>; byFunction: Map<string, number> } {
  const frames = new Map(profile.nodes.map((node) => [node.id, node.callFrame]));
  const byPackage = new Map<string, number>();
  const byFunction = new Map<string, number>();
  let totalMs = 0;
  let atMs = 0;
  profile.samples.forEach((id, index) => {
    const deltaMs = (profile.timeDeltas[index] ?? 0) / 1000;
    atMs += deltaMs;
    const frame = frames.get(id);
    if (!frame || frame.functionName === '(idle)' || atMs < fromMs || atMs > toMs) return;
    totalMs += deltaMs;
    const [pkg, fn] = [packageOf(frame), functionOf(frame)];
    byPackage.set(pkg, (byPackage.get(pkg) ?? 0) + deltaMs);
    byFunction.set(fn, (byFunction.get(fn) ?? 0) + deltaMs);
  });
  return { totalMs, byPackage, byFunction };
}

function main(): void {
  const [file, ...options] = process.argv.slice(2);
  if (!file || !existsSync(file)) {
    console.error(`${file ? `no file ${file}; ` : ''}usage: node --import tsx bench/profile-summary.ts <file.cpuprofile> [--from=s] [--to=s] [--min=%]`);
    process.exit(2);
  }
  const option = (name: string, fallback: number) => {
    const given = options.find((arg) => arg.startsWith(`--${name}=`));
    const value = given === undefined ? fallback : Number(given.slice(name.length + 3));
    if (Number.isNaN(value)) {
      console.error(`--${name} takes a number of ${name === 'min' ? 'percent' : 'seconds'}`);
      process.exit(2);
    }
    return value;
  };
  const [fromMs, toMs, minShare] = [option('from', 0) * 1000, option('to', Infinity) * 1000, option('min', 1)];
  const { totalMs, byPackage, byFunction } = summarize(JSON.parse(readFileSync(file, 'utf8')) as CpuProfile, fromMs, toMs);
  const print = (title: string, rows: Map<string, number>) => {
    console.log(`\n${title}`);
    for (const [name, ms] of [...rows].sort((a, b) => b[1] - a[1])) {
      const share = (100 * ms) / Math.max(totalMs, Number.EPSILON);
      if (share < minShare) break;
      console.log(`${share.toFixed(1).padStart(5)} %  ${ms.toFixed(0).padStart(7)} ms  ${name}`);
    }
  };
  console.log(`${totalMs.toFixed(0)} ms sampled in the window, idle left out`);
  print('by package', byPackage);
  print('by function (self time)', byFunction);
}

main();
