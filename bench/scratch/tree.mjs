// Scratch: the call tree under frames whose "name file" matches a pattern (inclusive ms, merged by key), in busy windows after `skip` s.
import { readFileSync } from 'node:fs';
const [file, pattern, skip = '5', depthMax = '4', minMs = '10'] = process.argv.slice(2);
const p = JSON.parse(readFileSync(file, 'utf8'));
const nodes = new Map(p.nodes.map((n) => [n.id, n]));
let t = p.startTime; const times = p.timeDeltas.map((d) => (t += d));
const selfMs = new Map();
for (let i = 0; i < p.samples.length; i++) { if ((times[i] - p.startTime) / 1e6 < Number(skip)) continue; const n = nodes.get(p.samples[i]); if (n.callFrame.functionName === '(idle)') continue; selfMs.set(n.id, (selfMs.get(n.id) ?? 0) + (p.timeDeltas[i + 1] ?? 0) / 1000); }
const inclusive = (n) => (selfMs.get(n.id) ?? 0) + (n.children ?? []).reduce((s, c) => s + inclusive(nodes.get(c)), 0);
const key = (n) => { const cf = n.callFrame; return `${cf.functionName || '(anon)'} ${(cf.url || '').replace(/^.*node_modules\//, '').replace(/^.*\/packages\//, '')}:${cf.lineNumber}`; };
const re = new RegExp(pattern);
const merged = new Map();
const addTree = (into, n, depth) => { const k = key(n); let e = into.get(k); if (!e) into.set(k, (e = { ms: 0, kids: new Map() })); e.ms += inclusive(n); if (depth < Number(depthMax)) for (const c of n.children ?? []) addTree(e.kids, nodes.get(c), depth + 1); };
const visit = (n, inside) => { const hit = !inside && re.test(key(n)); if (hit) addTree(merged, n, 0); for (const c of n.children ?? []) visit(nodes.get(c), inside || hit); };
visit(p.nodes[0], false);
const print = (m, indent) => [...m].sort((a, b) => b[1].ms - a[1].ms).forEach(([k, e]) => { if (e.ms < Number(minMs)) return; console.log(`${' '.repeat(indent)}${e.ms.toFixed(0).padStart(6)} ${k}`); print(e.kids, indent + 2); });
print(merged, 0);
