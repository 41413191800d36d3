// Scratch: a .cpuprofile's self time by function and by package, samples in the last `window` seconds only.
import { readFileSync } from 'node:fs';
const [file, windowS = '8', topN = '45'] = process.argv.slice(2);
const p = JSON.parse(readFileSync(file, 'utf8'));
const nodes = new Map(p.nodes.map((n) => [n.id, n]));
const parent = new Map();
for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
let t = p.startTime; const times = p.timeDeltas.map((d) => (t += d));
// Busy 100 ms buckets only (the load's rounds), past the first 20 s (start-up).
const busy = new Map();
for (let i = 0; i < p.samples.length; i++) { const b = Math.floor((times[i] - p.startTime) / 1e5); if (nodes.get(p.samples[i]).callFrame.functionName !== '(idle)') busy.set(b, (busy.get(b) ?? 0) + (p.timeDeltas[i + 1] ?? 0)); }
const inLoad = (i) => { const b = Math.floor((times[i] - p.startTime) / 1e5); return b > Number(windowS) * 10 && (busy.get(b) ?? 0) > Number(process.env.BUSY ?? 5e4); };
const self = new Map(), pkg = new Map(), incl = new Map();
let total = 0;
const where = (cf) => { const u = cf.url || ''; const m = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(u); if (m) return m[1]; if (u.includes('/packages/')) return u.split("/packages/")[1].split("/").slice(0, Number(process.env.DEPTH ?? 4)).join("/"); return u ? u.replace(/^.*\//, '') : `(${cf.functionName})`; };
for (let i = 0; i < p.samples.length; i++) {
  if (!inLoad(i)) continue;
  const n = nodes.get(p.samples[i]); const dt = (p.timeDeltas[i + 1] ?? 0) / 1000;
  if (n.callFrame.functionName === '(idle)') continue;
  total += dt;
  const key = `${n.callFrame.functionName || '(anon)'} ${where(n.callFrame)}:${n.callFrame.lineNumber}`;
  self.set(key, (self.get(key) ?? 0) + dt);
  const w = where(n.callFrame); pkg.set(w, (pkg.get(w) ?? 0) + dt);
  const seen = new Set();
  for (let id = n.id; id !== undefined; id = parent.get(id)) { const cf = nodes.get(id).callFrame; const k = `${cf.functionName || '(anon)'} ${where(cf)}:${cf.lineNumber}`; if (!seen.has(k)) { seen.add(k); incl.set(k, (incl.get(k) ?? 0) + dt); } }
}
const show = (m, n) => [...m].sort((a, b) => b[1] - a[1]).slice(0, n).forEach(([k, v]) => console.log(`${v.toFixed(0).padStart(7)} ms ${(100 * v / total).toFixed(1).padStart(5)}%  ${k}`));
console.log('busy ms', total.toFixed(0)); console.log('--- by package'); show(pkg, 30); console.log('--- self'); show(self, Number(topN)); console.log('--- inclusive'); show(incl, 70);
