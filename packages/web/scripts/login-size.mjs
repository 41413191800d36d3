/* global process, console */
// Prints what the /login page downloads before its first paint, as the server sends it: the
// entry chunk with its static imports and CSS, plus the lazy chunk of the /login index route,
// each by its build-time Brotli and gzip copy (the file itself where the build kept none).
// Run after `npm run build -w @portal/web` (reads dist/.vite/manifest.json). The budget is
// checked in a browser by `npm run bench -- bundle`, which also counts what loads later.
import { existsSync, readFileSync, statSync } from 'node:fs';
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

/** Bytes on the wire for a client taking `suffix` (.br, .gz): the copy, else the file. */
const sent = (file, suffix) => statSync(existsSync(join(dist, file + suffix)) ? join(dist, file + suffix) : join(dist, file)).size;

const totals = { js: { br: 0, gz: 0 }, css: { br: 0, gz: 0 } };
const rows = [];
for (const file of files) {
  const br = sent(file, '.br');
  const gz = sent(file, '.gz');
  const kind = file.endsWith('.css') ? 'css' : 'js';
  totals[kind].br += br;
  totals[kind].gz += gz;
  rows.push([br, gz, file]);
}
const kb = (n) => `${(n / 1024).toFixed(1)} KB`;
for (const [br, gz, file] of rows.sort((a, b) => b[0] - a[0])) console.log(`${kb(br).padStart(9)} br ${kb(gz).padStart(9)} gz  ${file}`);
for (const encoding of ['br', 'gz']) {
  const { js, css } = { js: totals.js[encoding], css: totals.css[encoding] };
  console.log(`/login first load, ${encoding === 'br' ? 'Brotli' : 'gzip'}: JS ${kb(js)} + CSS ${kb(css)} = ${kb(js + css)}`);
}
