// Our own sentences for contract findings (express-openapi-validator over Ajv at the HTTP edge, Ajv for MCP tool
// arguments). The libraries' text names schema internals: `must match pattern "^[a-z0-9-]+$"`, `must be <= 100`,
// `must NOT have more than 200 characters`, `must be integer` even when the problem is a repeated parameter. Each
// finding becomes "The <where> <what is wrong>." in words a caller can act on; a pattern is never quoted (its
// parameter's description in the contract says what is accepted).

/** What a finding is about, e.g. `query parameter limit`, `body field metadata.key`, `argument q`. */
export function subjectOf(path: string): string {
  const parts = path.replace(/^[./]/, '').split(/[./]/).filter(Boolean);
  const [where, ...rest] = parts;
  const name = rest.join('.');
  switch (where) {
    case 'query': return `query parameter ${name}`;
    case 'path':
    case 'params': return `path parameter ${name}`;
    case 'headers': return `header ${name}`;
    case 'body': return name ? `body field ${name}` : 'body';
    default: return parts.join('.') || 'request';
  }
}

const TYPE_WORDS: Record<string, string> = {
  integer: 'a whole number', number: 'a number', string: 'text', boolean: 'true or false', object: 'a JSON object', array: 'a JSON array', null: 'null',
};

const plural = (n: string, word: string) => `${n} ${word}${n === '1' ? '' : 's'}`;

/**
 * The predicate of a finding, from its Ajv keyword and Ajv's message (the only place the bound is written when the
 * validator passes no params).
 */
export function predicateOf(keyword: string | undefined, ajvMessage: string): string {
  const number = (ajvMessage.match(/(-?\d+(?:\.\d+)?)/) ?? [])[1] ?? '';
  switch (keyword) {
    case 'type': {
      const types = (ajvMessage.match(/must be ([\w,]+)/) ?? [])[1]?.split(',') ?? [];
      return `must be ${types.map((t) => TYPE_WORDS[t] ?? t).join(' or ') || 'of another type'}`;
    }
    case 'maximum': return `must be at most ${number}`;
    case 'minimum': return `must be at least ${number}`;
    case 'exclusiveMaximum': return `must be less than ${number}`;
    case 'exclusiveMinimum': return `must be more than ${number}`;
    case 'maxLength': return `must be at most ${plural(number, 'character')} long`;
    case 'minLength': return number === '1' ? 'must not be empty' : `must be at least ${plural(number, 'character')} long`;
    case 'maxItems': return `must have at most ${plural(number, 'item')}`;
    case 'minItems': return `must have at least ${plural(number, 'item')}`;
    case 'maxProperties': return `must have at most ${plural(number, 'key')}`;
    case 'minProperties': return `must have at least ${plural(number, 'key')}`;
    case 'pattern':
    case 'propertyNames': return 'is not in the form the contract describes for it';
    case 'format': return `must be a valid ${(ajvMessage.match(/format "([^"]+)"/) ?? [])[1] ?? 'value'}`;
    case 'enum': {
      const allowed = ajvMessage.includes(': ') ? ajvMessage.slice(ajvMessage.indexOf(': ') + 2) : '';
      return allowed ? `must be one of: ${allowed}` : 'is not one of the allowed values';
    }
    case 'const': return 'is not the allowed value';
    case 'anyOf':
    case 'oneOf': return 'matches none of the forms the contract allows for it';
    case 'required': return 'is required';
    case 'additionalProperties':
    case 'unevaluatedProperties': return 'is not accepted here';
    default: return 'is not valid';
  }
}

/** One finding of express-openapi-validator (`{path, message, errorCode}`) as our sentence. */
export function validatorSentence(finding: { path?: string; message?: string; errorCode?: string }): string {
  const path = finding.path ?? '';
  const message = finding.message ?? '';
  const subject = subjectOf(path);
  if (/^Unknown query parameter/.test(message)) return `The ${subject} is not one this operation takes.`;
  if (/^Empty value found/.test(message)) return `The ${subject} is empty; give it a value or leave it out.`;
  const keyword = finding.errorCode?.split('.')[0];
  return `The ${subject} ${predicateOf(keyword, message)}.`;
}
