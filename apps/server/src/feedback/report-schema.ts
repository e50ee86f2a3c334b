// The JSON Schema of a report body, taken from openapi/feedback.yaml at start-up (one source of truth: the card,
// the report-schema endpoint and the request validator all read the same `components.schemas.FeedbackReport`).
// References are resolved into a standalone JSON Schema 2020-12 document; OpenAPI-only keywords are dropped.
import { OpenApiReader } from '../http/openapi-resolve';

export type JsonSchema = Record<string, unknown>;

const DRAFT_2020_12 = 'https://json-schema.org/draft/2020-12/schema';

/** `components.schemas.<name>` of an OpenAPI document, with every $ref resolved (local and relative files). */
export function loadResolvedSchema(specPath: string, name: string): JsonSchema {
  return new OpenApiReader(specPath).resolved(`/components/schemas/${name}`) as JsonSchema;
}

/** The standalone document one project serves: `$id` is its report-schema URL; signed-only projects require `invite`. */
export function reportSchemaDocument(base: JsonSchema, options: { id: string; projectName: string; signedOnly: boolean }): JsonSchema {
  const required = Array.isArray(base.required) ? (base.required as string[]) : [];
  return {
    $schema: DRAFT_2020_12,
    $id: options.id,
    title: `Feedback report for ${options.projectName}`,
    ...base,
    required: options.signedOnly && !required.includes('invite') ? [...required, 'invite'] : required,
  };
}
