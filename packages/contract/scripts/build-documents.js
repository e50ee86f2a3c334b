#!/usr/bin/env node
// Turns each host's multi-file OpenAPI document into what the hosts serve and the package ships, offline:
// one self-contained document as YAML and as JSON (`redocly bundle`) and the reference page (`redocly build-docs`
// with Redoc inlined, so the page loads nothing from a CDN). Output: dist/openapi/<host>.{yaml,json,html}.
'use strict';

const { execFile } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const root = path.resolve(__dirname, '../../..');
const out = path.resolve(__dirname, '../dist/openapi');
const cli = path.join(path.dirname(require.resolve('@redocly/cli/package.json')), 'bin/cli.js');
const hosts = ['leaderboard', 'feedback'];

// Redoc's sidebar attribution shows a logo image from Redocly's CDN. The page must load nothing from another origin
// (its CSP forbids it anyway), so the logo is replaced by the same words drawn in an inline SVG; the link stays.
const LOGO = /https:\/\/cdn\.redoc\.ly\/redoc\/logo-mini(?:-full)?\.svg/g;
const INLINE_LOGO = `data:image/svg+xml,${encodeURIComponent(
  '<svg xmlns="http://www.w3.org/2000/svg" width="80" height="16"><text x="0" y="12" font-family="sans-serif" font-size="12">Redocly</text></svg>',
)}`;

// Redoc sets its title at a size that fits no long word beside its Copy button on a phone, and lets it break
// anywhere ("Leaderboa" / "rd" at 390 px): on narrow screens the title is smaller, and words break only where a word
// longer than the whole line leaves no choice. Inline, as the page's own styles are.
const NARROW_TITLE = '<style>@media (max-width: 600px) { h1 { font-size: 1.6rem !important; overflow-wrap: break-word !important; word-break: normal !important; } }</style>';

function redocly(args) {
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      [cli, ...args, '--lint-config', 'off'],
      { cwd: root, env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' } },
      (err, _stdout, stderr) => {
        if (!err) return resolve();
        process.stderr.write(String(stderr || err.message));
        reject(new Error(`redocly ${args[0]} failed`));
      },
    );
  });
}

async function buildHost(host) {
  const source = `openapi/${host}.yaml`;
  const page = path.join(out, `${host}.html`);
  await Promise.all([
    redocly(['bundle', source, '-o', path.join(out, `${host}.yaml`)]),
    redocly(['bundle', source, '--ext', 'json', '-o', path.join(out, `${host}.json`)]),
    redocly(['build-docs', source, '--inlineBundle', '-o', page]),
  ]);
  fs.writeFileSync(page, fs.readFileSync(page, 'utf8').replace(LOGO, INLINE_LOGO).replace('</head>', `${NARROW_TITLE}</head>`));
}

fs.mkdirSync(out, { recursive: true });
// In parallel: each redocly run is mostly its own start-up.
Promise.all(hosts.map(buildHost)).catch((err) => {
  process.stderr.write(`${err.message}\n`);
  process.exitCode = 1;
});
