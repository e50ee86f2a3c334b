// Reads a part of an OpenAPI document (a schema, an operation, a parameter list) with every $ref resolved, local
// and into the shared component files, as plain JSON Schema: OpenAPI-only keywords are dropped. The feedback report
// schema and the MCP tools' schemas are both taken from the documents this way, so no schema is written twice.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parse as parseYaml } from 'yaml';

// Keywords OpenAPI 3.1 adds to JSON Schema; a plain JSON Schema validator in strict mode refuses them.
const OPENAPI_ONLY = new Set(['example', 'discriminator', 'xml', 'externalDocs']);
const MAX_DEPTH = 32;

/** One document and the files it references, parsed once. */
export class OpenApiReader {
  private readonly documents = new Map<string, unknown>();
  readonly file: string;

  constructor(specPath: string) {
    this.file = path.resolve(specPath);
  }

  /** The node at a JSON pointer of the root document ("/paths/~1v1~1x/get"), resolved. */
  resolved(pointer: string): unknown {
    return this.resolve(this.at(this.load(this.file), pointer, this.file), this.file, 0);
  }

  /** The node at a pointer, unresolved (for walking the document's structure). */
  raw(pointer: string): unknown {
    return this.at(this.load(this.file), pointer, this.file);
  }

  private load(file: string): unknown {
    if (!this.documents.has(file)) this.documents.set(file, parseYaml(fs.readFileSync(file, 'utf8')));
    return this.documents.get(file);
  }

  private at(doc: unknown, fragment: string, where: string): unknown {
    let node = doc;
    for (const raw of fragment.replace(/^\//, '').split('/').filter(Boolean)) {
      const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
      if (node === null || typeof node !== 'object' || !(key in node)) throw new Error(`${where}: cannot resolve #${fragment}`);
      node = (node as Record<string, unknown>)[key];
    }
    return node;
  }

  private resolve(node: unknown, file: string, depth: number): unknown {
    if (depth > MAX_DEPTH) throw new Error(`${file}: schema references nest deeper than ${MAX_DEPTH} (a cycle?)`);
    if (Array.isArray(node)) return node.map((item) => this.resolve(item, file, depth + 1));
    if (node === null || typeof node !== 'object') return node;
    const object = node as Record<string, unknown>;
    if (typeof object.$ref === 'string') {
      const [target, fragment = ''] = object.$ref.split('#');
      const targetFile = target ? path.resolve(path.dirname(file), target) : file;
      const resolved = this.resolve(this.at(this.load(targetFile), fragment, targetFile), targetFile, depth + 1) as Record<string, unknown>;
      // Siblings of $ref (allowed in 3.1, e.g. a description) refine the target.
      const { $ref: _ref, ...siblings } = object;
      return { ...resolved, ...(this.resolve(siblings, file, depth + 1) as Record<string, unknown>) };
    }
    const out: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(object)) {
      if (!OPENAPI_ONLY.has(key)) out[key] = this.resolve(value, file, depth + 1);
    }
    return out;
  }
}
