// build.mjs bundles the app with esbuild into a folder a static file
// server can serve: index.html, app.js, app.css and the UI Kit's fonts.
//
// Usage: node build.mjs [OUTDIR] (default dist)

import { build } from 'esbuild';
import { copyFile, mkdir } from 'node:fs/promises';
import { join } from 'node:path';

const outdir = process.argv[2] ?? 'dist';
await mkdir(outdir, { recursive: true });
const result = await build({
  entryPoints: ['app.jsx'],
  bundle: true,
  format: 'esm',
  minify: true,
  jsx: 'automatic',
  loader: { '.woff2': 'file' },
  define: { 'process.env.NODE_ENV': '"production"' },
  outdir,
  metafile: true,
  logLevel: 'warning',
});
await copyFile('index.html', join(outdir, 'index.html'));
// The size of what a browser downloads, for the test's log.
const bytes = Object.values(result.metafile.outputs).reduce((n, o) => n + o.bytes, 0);
console.log(JSON.stringify({ outdir, files: Object.keys(result.metafile.outputs).length, bytes }));
