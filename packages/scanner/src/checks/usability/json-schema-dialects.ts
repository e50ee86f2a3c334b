import Ajv from 'ajv';
import Ajv2019 from 'ajv/dist/2019';
import Ajv2020 from 'ajv/dist/2020';
import draft06MetaSchema from 'ajv/dist/refs/json-schema-draft-06.json';

/**
 * Meta-schema validation of tool schemas. MCP 2025-11-25 (basic §JSON Schema Usage, SEP-1613): embedded schemas
 * without `$schema` are JSON Schema 2020-12; a schema may declare another dialect with `$schema`. One Ajv instance
 * per dialect family; each is only asked whether a schema is valid against its meta-schema, never to compile it.
 */
const options = { strict: false, validateFormats: false, allErrors: false } as const;
const ajv2020 = new Ajv2020(options);
const ajv2019 = new Ajv2019(options);
const ajvDraft07 = new Ajv(options);
ajvDraft07.addMetaSchema(draft06MetaSchema);

/** `canonical` is the meta-schema id the Ajv instance knows; `pattern` accepts the spellings seen in the wild. */
const DIALECTS: Array<{ pattern: RegExp; name: string; canonical: string; ajv: Ajv }> = [
  { pattern: /^https?:\/\/json-schema\.org\/draft\/2020-12\/schema#?$/, name: '2020-12', canonical: 'https://json-schema.org/draft/2020-12/schema', ajv: ajv2020 },
  { pattern: /^https?:\/\/json-schema\.org\/draft\/2019-09\/schema#?$/, name: '2019-09', canonical: 'https://json-schema.org/draft/2019-09/schema', ajv: ajv2019 },
  { pattern: /^https?:\/\/json-schema\.org\/draft-07\/schema#?$/, name: 'draft-07', canonical: 'http://json-schema.org/draft-07/schema#', ajv: ajvDraft07 },
  { pattern: /^https?:\/\/json-schema\.org\/draft-06\/schema#?$/, name: 'draft-06', canonical: 'http://json-schema.org/draft-06/schema#', ajv: ajvDraft07 },
];

export type SchemaVerdict = { valid: true; dialect: string } | { valid: false; dialect: string; error: string } | { valid: null; dialect: string };

export function validateAgainstMetaSchema(schema: unknown): SchemaVerdict {
  if (!schema || typeof schema !== 'object' || Array.isArray(schema)) return { valid: false, dialect: '2020-12', error: 'is not a JSON object' };
  const declared = (schema as { $schema?: unknown }).$schema;
  const dialect = declared === undefined ? DIALECTS[0] : DIALECTS.find((d) => typeof declared === 'string' && d.pattern.test(declared));
  // A dialect we do not carry a meta-schema for cannot be judged (it is not wrong to declare one).
  if (!dialect) return { valid: null, dialect: String(declared) };
  const candidate = { ...(schema as Record<string, unknown>), $schema: dialect.canonical };
  try {
    if (dialect.ajv.validateSchema(candidate) === true) return { valid: true, dialect: dialect.name };
    return { valid: false, dialect: dialect.name, error: dialect.ajv.errorsText(dialect.ajv.errors?.slice(0, 2), { separator: '; ', dataVar: 'schema' }) };
  } catch (error) {
    return { valid: false, dialect: dialect.name, error: error instanceof Error ? error.message : String(error) };
  }
}
