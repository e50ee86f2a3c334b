'use strict';
// Compares two versions of one OpenAPI document with Optic and sorts what changed for a reader:
// - breaking: what Optic's `breaking-changes` ruleset refuses (a removed or renamed response field, an operation or
//   status removed, a narrowed enum, a new required parameter or request field, a changed type...), each with
//   Optic's own sentence;
// - non-breaking: every other change of an operation, parameter, body field, response or header;
// - documentation: descriptions, summaries, titles and examples, counted rather than listed.
// Each document is read with its $ref files resolved (openapi/components/*.yaml), as the hosts serve it bundled.

const { optic } = require('./optic');

// Keys whose changes only a reader notices (tags group operations in the reference page).
const DOCUMENTATION_KEYS = new Set(['description', 'summary', 'title', 'example', 'examples', 'externalDocs', 'tags']);

async function loadDocument(file) {
  const { io } = optic();
  const parsed = await io.parseOpenAPIWithSourcemap(file, { externalRefHeaders: [] });
  const version = io.checkOpenAPIVersion(parsed.jsonLike);
  io.validateOpenApiV3Document(parsed.jsonLike, parsed.sourcemap, { strictOpenAPI: false });
  const warnings = [];
  return io.denormalize({ ...parsed, version, isEmptySpec: false }, version, warnings);
}

/** `/schema/properties/a/items/properties/b` -> `a[].b`; anything else is left as its JSON pointer. */
function fieldName(pointer) {
  const m = /^\/schema((?:\/(?:properties\/[^/]+|items))+)$/.exec(pointer);
  if (!m) return pointer;
  return m[1]
    .split('/')
    .filter(Boolean)
    .reduce((name, part, i, parts) => {
      if (part === 'properties') return name;
      if (part === 'items') return `${name}[]`;
      const prev = parts[i - 1];
      return prev === 'properties' && name ? `${name}.${unescapePointer(part)}` : `${name}${unescapePointer(part)}`;
    }, '');
}

function unescapePointer(segment) {
  return segment.replace(/~1/g, '/').replace(/~0/g, '~');
}

function isDocumentation(diff) {
  const pointer = diff.trail || diff.after || diff.before || '';
  const parts = pointer.split('/').map(unescapePointer);
  // A key under `properties` is a field's name (a field may well be called `title`), not a keyword.
  return parts.some((part, i) => DOCUMENTATION_KEYS.has(part) && parts[i - 1] !== 'properties');
}

/** One line per node of Optic's grouped changes: `where`, then what happened there. */
function collectNodes(grouped) {
  const nodes = [];
  const add = (where, node) => {
    const diffs = (node && node.diffs) || [];
    const rules = (node && node.rules) || [];
    if (diffs.length || rules.length) nodes.push({ where, diffs, rules });
  };
  add('document', grouped.specification);
  // Components are compared where operations use them (Optic inlines them into each operation first), so a
  // component's own diff here would only repeat one of those lines.
  const unmatched = grouped.unmatched || { diffs: [], rules: [] };
  add('document', { diffs: unmatched.diffs.filter((d) => !/^\/components\//.test(d.after || d.before || '')), rules: unmatched.rules });
  for (const endpoint of Object.values(grouped.endpoints)) {
    const op = `${endpoint.method} ${endpoint.path}`;
    add(op, endpoint);
    for (const [kind, label] of [
      ['pathParameters', 'path parameter'],
      ['queryParameters', 'query parameter'],
      ['headerParameters', 'header parameter'],
      ['cookieParameters', 'cookie parameter'],
    ]) {
      for (const [name, node] of Object.entries(endpoint[kind] || {})) add(`${op} ${label} ${name}`, node);
    }
    add(`${op} request body`, endpoint.request);
    addContents(add, `${op} request body`, endpoint.request);
    for (const [status, response] of Object.entries(endpoint.responses || {})) {
      add(`${op} response ${status}`, response);
      for (const [name, node] of Object.entries(response.headers || {})) add(`${op} response ${status} header ${name}`, node);
      addContents(add, `${op} response ${status}`, response);
    }
  }
  return nodes;
}

function addContents(add, where, part) {
  for (const [type, body] of Object.entries((part && part.contents) || {})) {
    add(`${where} ${type}`, body);
    for (const [pointer, node] of Object.entries(body.fields || {})) add(`${where} ${type} field ${fieldName(pointer)}`, node);
    add(`${where} ${type} examples`, body.examples);
  }
}

/** What one diff did, relative to its node: `added`, `removed`, `changed`, or `<sub-path> added` and so on. */
function describeDiff(diff) {
  const trail = diff.trail || '';
  if (!trail) return diff.change;
  if (/\/required\/\d+$/.test(trail)) return diff.change === 'added' ? 'now required' : 'no longer required';
  return `${trail.replace(/^\/schema(?=\/|$)/, '') || '/'} ${diff.change}`;
}

/**
 * Drops the breaking results that sit inside another one (the fields of a removed response, the parameters of a
 * removed operation): the outer one says it all. `inside` counts what was folded into each kept result.
 */
function withoutNested(results) {
  const key = (r) => `${r.location.spec}:${r.location.jsonPath}`;
  const outermost = (r) =>
    results
      .filter((o) => o !== r && key(r).startsWith(`${key(o)}/`))
      .sort((a, b) => key(a).length - key(b).length)[0];
  const inside = new Map();
  const kept = [];
  for (const r of results) {
    const outer = outermost(r);
    if (outer) inside.set(outer, (inside.get(outer) || 0) + 1);
    else kept.push(r);
  }
  return kept.map((r) => ({ ...r, inside: inside.get(r) || 0 }));
}

function isBreakingRule(rule) {
  return !rule.passed && !rule.exempted;
}

/**
 * Compares `baseFile` with `headFile` (paths of the two documents; their $refs are resolved from their folders).
 * Returns { breaking: [{where, message, rule}], nonBreaking: [{where, what}], documentation: count }.
 */
async function compareDocuments(baseFile, headFile) {
  const { utils, rules, standard } = optic();
  const [base, head] = await Promise.all([loadDocument(baseFile), loadDocument(headFile)]);
  const runner = new rules.RuleRunner([new standard.BreakingChangesRuleset()]);
  const result = await utils.compareSpecs(base, head, runner, {});

  const breaking = withoutNested(result.results.filter(isBreakingRule)).map((r) => ({
    where: r.where,
    message: r.inside ? `${r.error} (and ${r.inside} more inside it)` : r.error,
    rule: r.name,
  }));

  const grouped = utils.groupDiffsByEndpoint({ from: base.jsonLike, to: head.jsonLike }, result.diffs, result.results);
  const nonBreaking = [];
  let documentation = 0;
  for (const node of collectNodes(grouped)) {
    if (node.rules.some(isBreakingRule)) continue; // listed above, with Optic's reason
    const what = [];
    for (const diff of node.diffs) {
      if (isDocumentation(diff)) documentation += 1;
      else what.push(describeDiff(diff));
    }
    if (what.length) nonBreaking.push({ where: node.where, what: [...new Set(what)].join(', ') });
  }
  return { breaking, nonBreaking, documentation };
}

module.exports = { compareDocuments, fieldName };
