// Query parameters typed `integer` (or `number`) in the contract accept the decimal spelling only. The validator
// coerces with Number(), which also reads "0x10" as 16, "1e1" as 10, "+5", " 50" and "1.0"; the raw value is
// checked here against the JSON number grammar before that coercion matters. Runs after the validator, which
// attached the operation's (dereferenced) parameters to the request.
import type { NextFunction, Request, Response } from 'express';
import { badRequest } from './errors';

export const INTEGER_GRAMMAR = /^-?(?:0|[1-9][0-9]*)$/;
export const NUMBER_GRAMMAR = /^-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?$/;

interface Parameter {
  name: string;
  in: string;
  schema?: { type?: string | string[]; minimum?: number; maximum?: number };
}

const typesOf = (p: Parameter): string[] => [p.schema?.type ?? []].flat();

export function strictNumbers(req: Request, _res: Response, next: NextFunction): void {
  const parameters = (req as Request & { openapi?: { schema?: { parameters?: Parameter[] } } }).openapi?.schema?.parameters ?? [];
  const numeric = parameters.filter((p) => p.in === 'query' && typesOf(p).some((t) => t === 'integer' || t === 'number'));
  if (numeric.length === 0) return next();
  const at = req.originalUrl.indexOf('?');
  const query = new URLSearchParams(at < 0 ? '' : req.originalUrl.slice(at + 1));
  for (const p of numeric) {
    const grammar = typesOf(p).includes('number') ? NUMBER_GRAMMAR : INTEGER_GRAMMAR;
    const bad = query.getAll(p.name).find((raw) => !grammar.test(raw));
    if (bad !== undefined) {
      const kind = grammar === INTEGER_GRAMMAR ? 'an integer' : 'a number';
      return next(badRequest(`Query parameter ${p.name} must be ${kind} written in decimal digits (got ${JSON.stringify(bad.slice(0, 40))}).`));
    }
    // Over 309 digits, Number() is Infinity, which the validator's bounds let through to the handler (a 500).
    const endless = query.getAll(p.name).find((raw) => !Number.isFinite(Number(raw)));
    if (endless !== undefined) {
      const negative = endless.startsWith('-');
      const bound = negative ? p.schema?.minimum : p.schema?.maximum;
      return next(badRequest(bound === undefined
        ? `Query parameter ${p.name} is out of range (got ${JSON.stringify(`${endless.slice(0, 20)}...`)}).`
        : `The query parameter ${p.name} must be at ${negative ? 'least' : 'most'} ${bound}.`));
    }
  }
  next();
}
