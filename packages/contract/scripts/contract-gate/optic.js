'use strict';
// Optic (`@useoptic/optic`, a root devDependency) as a library: its OpenAPI 3.1 reader, its differ and its
// `breaking-changes` ruleset. The libraries are resolved from Optic's own folder, so they are exactly the versions the
// CLI ships with, and loaded on first use (about 3 s of start-up). Only these four are loaded: Optic's CLI entry,
// with its telemetry (Segment) and error reporting (Sentry), is never required.

const { createRequire } = require('node:module');

let loaded = null;

function optic() {
  if (loaded) return loaded;
  const fromOptic = createRequire(require.resolve('@useoptic/optic/package.json'));
  loaded = {
    io: fromOptic('@useoptic/openapi-io'),
    utils: fromOptic('@useoptic/openapi-utilities'),
    rules: fromOptic('@useoptic/rulesets-base'),
    standard: fromOptic('@useoptic/standard-rulesets'),
    yaml: fromOptic('js-yaml'),
  };
  return loaded;
}

module.exports = { optic };
