/* global process, console */
// Prints what the /login page downloads before its first paint, gzipped: the entry chunk
// with its static imports and CSS, plus the lazy chunk of the /login index route. Run after
// `npm run build -w @portal/web` (reads dist/.vite/manifest.json).
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { join } from 'node:path';

const dist = join(import.meta.dirname, '..', 'dist');
const manifest = JSON.parse(readFileSync(join(dist, '.vite', 'manifest.json'), 'utf8'));
const routeModules = process.argv.slice(2).length > 0 ? process.argv.slice(2) : ['src/features/auth/LoginPage.tsx'];

const files = new Set();
const visit = (key) => {
  const chunk = manifest[key];
  if (!chunk || files.has(chunk.file)) return;
  files.add(chunk.file);
  for (const css of chunk.css ?? []) files.add(css);
  for (const imported of chunk.imports ?? []) visit(imported);
};
visit('index.html');
for (const key of routeModules) visit(key);

let js = 0;
let css = 0;
const rows = [];
for (const file of files) {
  const size = gzipSync(readFileSync(join(dist, file)), { level: 9 }).length;
  if (file.endsWith('.css')) css += size;
  else js += size;
  rows.push([size, file]);
}
const html = gzipSync(readFileSync(join(dist, 'index.html')), { level: 9 }).length;
for (const [size, file] of rows.sort((a, b) => b[0] - a[0])) console.log(`${(size / 1024).toFixed(2).padStart(8)} KB  ${file}`);
const kb = (n) => `${(n / 1024).toFixed(1)} KB`;
console.log(`\n/login first load, gzipped: JS ${kb(js)} + CSS ${kb(css)} = ${kb(js + css)} (+ index.html ${kb(html)})`);
