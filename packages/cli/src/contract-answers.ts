// What the service's answers must be: the contract's own response schemas, read from the self-contained
// openapi/leaderboard.json that @arl/contract builds (never a schema written here). An answer the contract does
// not describe becomes one sentence naming the operation and what was wrong, instead of a TypeError later on.
import * as fs from 'node:fs';
import { documentPaths } from '@arl/contract/node';
import Ajv2020, { type ErrorObject, type ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { CliError } from './errors';

interface ResponseObject {
  $ref?: string;
  content?: Record<string, { schema?: unknown }>;
}
interface OperationObject {
  operationId?: string;
  responses?: Record<string, ResponseObject>;
}
interface OpenApiDocument {
  paths: Record<string, Record<string, OperationObject>>;
  components: { responses?: Record<string, ResponseObject> };
}

/** The id the document is registered under, so the schemas' `#/components/...` references resolve inside it. */
const DOCUMENT_ID = 'https://arl.invalid/openapi/leaderboard.json';

export class ContractAnswers {
  private readonly ajv: Ajv2020;
  private readonly validators = new Map<string, ValidateFunction>();

  constructor(private readonly doc: OpenApiDocument) {
    // Answers are checked, never changed: no defaults, no coercion. OpenAPI's own keywords (example, discriminator)
    // are annotations here, hence strict: false.
    this.ajv = new Ajv2020({ allErrors: false, useDefaults: false, coerceTypes: false, strict: false, logger: false });
    addFormats(this.ajv);
    this.ajv.addSchema({ ...doc, $id: DOCUMENT_ID });
  }

  static load(): ContractAnswers {
    return new ContractAnswers(JSON.parse(fs.readFileSync(documentPaths('leaderboard').json, 'utf8')) as OpenApiDocument);
  }

  /** The operationId of a request, e.g. `getScanReport` for GET /v1/leaderboard/scans/{scanId}/report. */
  operationId(pathTemplate: string, method: string): string {
    return this.doc.paths[pathTemplate]?.[method.toLowerCase()]?.operationId ?? `${method.toUpperCase()} ${pathTemplate}`;
  }

  /**
   * A successful answer's body, parsed and checked: the status is one the operation lists, the content type JSON,
   * the text JSON, the value what the schema describes. Anything else throws a CliError (exit 2).
   */
  checkSuccess(pathTemplate: string, method: string, status: number, contentType: string, text: string): unknown {
    const operation = this.operationId(pathTemplate, method);
    const response = this.responseOf(pathTemplate, method, status);
    if (!response) throw new CliError(`The service answered ${operation} with ${status}, a status the contract does not describe for it.`);
    const schema = response.content?.['application/json']?.schema;
    if (schema === undefined) return text; // not a JSON answer in the contract (none of the operations arl calls)
    const mediaType = contentType.split(';')[0].trim().toLowerCase();
    if (!/^application\/([\w.-]+\+)?json$/.test(mediaType)) {
      const what = /html/.test(mediaType) ? `HTML (${mediaType})` : mediaType ? `${mediaType}` : 'no content type';
      throw new CliError(`The service answered ${operation} with ${what} instead of JSON: is --api the leaderboard service?`);
    }
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      throw new CliError(`The service's answer to ${operation} is not valid JSON.`);
    }
    const validate = this.validatorFor(pathTemplate, method, status);
    if (!validate(value)) {
      throw new CliError(`The service's answer to ${operation} is not what the contract describes: ${describeFinding(validate.errors?.[0])}.`);
    }
    return value;
  }

  private responseOf(pathTemplate: string, method: string, status: number): ResponseObject | undefined {
    const responses = this.doc.paths[pathTemplate]?.[method.toLowerCase()]?.responses ?? {};
    const response = responses[String(status)] ?? responses.default;
    const ref = response?.$ref?.match(/^#\/components\/responses\/(.+)$/)?.[1];
    return ref ? this.doc.components.responses?.[ref] : response;
  }

  private validatorFor(pathTemplate: string, method: string, status: number): ValidateFunction {
    const key = `${method.toLowerCase()} ${pathTemplate} ${status}`;
    let validate = this.validators.get(key);
    if (!validate) {
      const responses = this.doc.paths[pathTemplate][method.toLowerCase()].responses ?? {};
      const code = String(status) in responses ? String(status) : 'default';
      const responseRef = responses[code].$ref;
      const pointer = responseRef
        ? `${responseRef}/content/application~1json/schema`
        : `#/paths/${escapePointer(pathTemplate)}/${method.toLowerCase()}/responses/${code}/content/application~1json/schema`;
      validate = this.ajv.compile({ $ref: `${DOCUMENT_ID}${pointer}` });
      this.validators.set(key, validate);
    }
    return validate;
  }
}

const escapePointer = (segment: string) => segment.replace(/~/g, '~0').replace(/\//g, '~1');

/** The first finding in words: where in the answer (a JSON pointer) and what is wrong there. */
export function describeFinding(error: ErrorObject | undefined): string {
  if (!error) return 'it does not match its schema';
  const at = error.instancePath || 'the answer';
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'required':
      return `${error.instancePath}/${String(params.missingProperty)} is required`;
    case 'additionalProperties':
      return `${error.instancePath}/${String(params.additionalProperty)} is not a field the contract has`;
    case 'type':
      return `${at} must be of type ${String(params.type)}`;
    case 'enum':
      return `${at} must be one of ${(params.allowedValues as unknown[]).map(String).join(', ')}`;
    case 'maximum':
      return `${at} must be at most ${String(params.limit)}`;
    case 'minimum':
      return `${at} must be at least ${String(params.limit)}`;
    case 'pattern':
    case 'format':
      return `${at} is not in the form the contract describes`;
    default:
      return `${at} ${error.message ?? 'does not match its schema'}`;
  }
}
