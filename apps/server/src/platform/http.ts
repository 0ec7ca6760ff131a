import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { message, normalizeLocale, type Locale } from '@dau/domain';
import { AppError } from './errors.js';

/** A URL with the values of secret-looking query parameters (token, key, secret, signature, password) replaced by ***. */
export function redactQuery(url: string): string {
  const q = url.indexOf('?');
  if (q < 0) return url;
  return url.slice(0, q) + url.slice(q).replace(/([?&][^=&]*(?:token|key|secret|signature|password|sig)[^=&]*=)[^&#]*/gi, '$1***');
}

export function localeOf(req: FastifyRequest): Locale {
  const h = (req.headers['x-locale'] as string | undefined) ?? req.headers['accept-language'] ?? '';
  return normalizeLocale(String(h).split(',')[0]?.trim() ?? '');
}

/** Where the first NUL character of a parsed input sits (`body.items.0.name`), keys included; null when none. */
export function nulPath(v: unknown, at: string, depth = 0): string | null {
  if (typeof v === 'string') return v.includes('\u0000') ? at : null;
  if (!v || typeof v !== 'object' || depth > 32) return null;
  for (const [k, val] of Object.entries(v)) {
    const here = at ? `${at}.${k}` : k;
    if (k.includes('\u0000')) return here;
    const found = nulPath(val, here, depth + 1);
    if (found) return found;
  }
  return null;
}

/**
 * PostgreSQL "data exception" codes a bad value causes (the schemas should have refused it first):
 * invalid byte sequence (NUL), numeric out of range, invalid text representation, string too long,
 * bad or overflowing date/time, null where none is allowed. Answered 400 instead of 500.
 */
const BAD_VALUE_SQLSTATES: Record<string, string> = {
  '22P05': 'untranslatable character',
  '22021': 'invalid byte sequence',
  '22003': 'number out of range',
  '22P02': 'invalid value',
  '22001': 'value too long',
  '22007': 'invalid date or time',
  '22008': 'date or time out of range',
  '22004': 'value required',
  '2201E': 'invalid number',
  '2201W': 'invalid limit',
  '2201X': 'invalid offset',
};

/** The SQLSTATE of a database error, looking through the query builder's wrapper. */
function sqlState(err: unknown): string | undefined {
  for (let e = err, i = 0; e && typeof e === 'object' && i < 5; e = (e as { cause?: unknown }).cause, i++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return code;
  }
  return undefined;
}

/**
 * Fastify's refusals before any route (a malformed URL such as `/%E0%A4%A`, a too long path parameter):
 * our `{ code, message, details }` shape instead of Fastify's default one (the `frameworkErrors` option).
 */
export function frameworkErrors(err: FastifyError, req: FastifyRequest, reply: FastifyReply) {
  const status = err.statusCode && err.statusCode >= 400 && err.statusCode < 500 ? err.statusCode : 400;
  void reply.status(status).send({ code: 'PARAM_INVALID', message: message('PARAM_INVALID', localeOf(req)), details: { reason: err.code ?? 'bad request' } });
}

/**
 * The last line behind the schemas: no NUL character in a query, path parameter or body reaches a
 * handler (PostgreSQL refuses them in text and JSON), whatever the route declared.
 */
export function installInputGuard(app: FastifyInstance) {
  app.addHook('preValidation', async (req) => {
    const field = nulPath(req.params, '') ?? nulPath(req.query, '') ?? nulPath(req.body, '');
    if (field !== null) throw new AppError(400, 'PARAM_INVALID', {}, [{ field: field || 'body', message: 'must not contain NUL characters' }]);
    // A numeric id in a path is digits only, whatever schema the route's parameter has: " 1", "1e0",
    // "0x1" or "+1" are not 1 (ids that are not numbers, a match's URN or a server's UUID, are left alone).
    for (const [k, v] of Object.entries((req.params ?? {}) as Record<string, unknown>)) {
      if (DIGIT_PARAMS.has(k) && typeof v === 'string' && NUMBER_LIKE.test(v) && !/^[0-9]{1,20}$/.test(v)) {
        throw new AppError(400, 'PARAM_INVALID', {}, [{ field: k, message: 'digits only' }]);
      }
    }
    // What the audit trail (jsonb) could not keep is refused before anything acts: a lone surrogate is not
    // valid text, and nesting deeper than any form of ours is not an input.
    const bad = textProblem(req.body, 'body', 0);
    if (bad) throw new AppError(400, 'PARAM_INVALID', {}, [bad]);
  });
}

/** Path parameters that are row ids (numbers) in every route that has them. */
const DIGIT_PARAMS = new Set(['id', 'line_id', 'round_id', 'pid']);
/** What a number parser would read as a number (spaces, signs, decimals, exponents, hexadecimal). */
const NUMBER_LIKE = /^\s*[+-]?(0x[0-9a-f]+|[0-9]*\.?[0-9]+(e[+-]?[0-9]+)?)\s*$/i;

/** Nesting deeper than this in a body is refused (no route of ours takes more than a few levels). */
export const MAX_BODY_DEPTH = 16;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** The first string with a lone surrogate, or the first place nested too deep; null when the input is fine. */
export function textProblem(v: unknown, at: string, depth: number): { field: string; message: string } | null {
  if (typeof v === 'string') return LONE_SURROGATE.test(v) ? { field: at, message: 'must be valid text (a lone surrogate)' } : null;
  if (!v || typeof v !== 'object') return null;
  if (depth >= MAX_BODY_DEPTH) return { field: at, message: `nested deeper than ${MAX_BODY_DEPTH} levels` };
  for (const [k, val] of Object.entries(v)) {
    const here = `${at}.${k}`;
    if (LONE_SURROGATE.test(k)) return { field: here, message: 'must be valid text (a lone surrogate)' };
    const found = textProblem(val, here, depth + 1);
    if (found) return found;
  }
  return null;
}

/** Keeps only what a schema declares (object keys, array items), whatever the values' types. */
function declaredOnly(schema: z.ZodType, data: unknown, depth = 0): unknown {
  if (depth > 32 || data === null || typeof data !== 'object') return data;
  const def = (schema as unknown as { _zod: { def: { type: string; innerType?: z.ZodType; element?: z.ZodType; shape?: Record<string, z.ZodType>; catchall?: z.ZodType; getter?: () => z.ZodType; in?: z.ZodType; options?: z.ZodType[] } } })._zod.def;
  switch (def.type) {
    case 'optional':
    case 'nullable':
    case 'default':
    case 'readonly':
    case 'catch':
      return declaredOnly(def.innerType!, data, depth + 1);
    case 'lazy':
      return declaredOnly(def.getter!(), data, depth + 1);
    case 'pipe':
      return declaredOnly(def.in!, data, depth + 1);
    case 'array':
      return Array.isArray(data) ? data.map((x) => declaredOnly(def.element!, x, depth + 1)) : data;
    case 'object': {
      if (Array.isArray(data) || def.catchall) return data;
      const out: Record<string, unknown> = {};
      for (const [k, sub] of Object.entries(def.shape ?? {})) if (k in data) out[k] = declaredOnly(sub, (data as Record<string, unknown>)[k], depth + 1);
      return out;
    }
    case 'union': {
      const objects = (def.options ?? []).filter((o) => (o as unknown as { _zod: { def: { type: string } } })._zod.def.type === 'object');
      return objects.length === 1 ? declaredOnly(objects[0], data, depth + 1) : data;
    }
    default:
      return data;
  }
}

/**
 * Answers are serialised from their declared schema: a field that is not declared never leaves the
 * server (OWASP API3). An answer that does not match its schema (a server bug, never the caller's) is
 * logged and still sent, reduced to the declared fields, instead of turning a good request into a 500.
 */
export function answerSerializer({ schema, method, url }: { schema: unknown; method: string; url: string }) {
  const zod = (schema instanceof z.ZodType ? schema : (schema as { properties?: unknown })?.properties) as z.ZodType | undefined;
  return (data: unknown): string => {
    if (!(zod instanceof z.ZodType)) return JSON.stringify(data);
    const result = zod.safeParse(data);
    if (result.success) return JSON.stringify(result.data);
    mismatchLog(method, url, result.error);
    return JSON.stringify(declaredOnly(zod, data));
  };
}

/** A mismatched answer is a server bug: reported on stderr with the first issues. */
function mismatchLog(method: string, url: string, error: z.ZodError) {
  console.error(`answer of ${method} ${url} does not match its schema: ${error.issues.slice(0, 3).map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
}

/** Every error answers { code, message, details? } in the caller's language; never a stack trace. */
export function installErrorHandler(app: FastifyInstance) {
  installInputGuard(app);
  app.setErrorHandler((err: FastifyError | AppError, req, reply) => {
    const locale = localeOf(req);
    if (err instanceof AppError) {
      return reply.status(err.status).send({ code: err.code, message: message(err.code, locale, err.params), details: err.details });
    }
    if (hasZodFastifySchemaValidationErrors(err)) {
      const details = err.validation.map((v) => ({
        field: [String(v.instancePath ?? '').replace(/^\//, '').replace(/\//g, '.'), (v.params as { issue?: { path?: unknown[] } })?.issue?.path?.join('.')]
          .filter(Boolean)[0] || err.validationContext || '',
        message: v.message,
      }));
      return reply.status(400).send({ code: 'PARAM_INVALID', message: message('PARAM_INVALID', locale), details });
    }
    const state = sqlState(err);
    if (state && BAD_VALUE_SQLSTATES[state]) {
      req.log.warn({ err }, 'bad value reached the database');
      return reply.status(400).send({ code: 'PARAM_INVALID', message: message('PARAM_INVALID', locale), details: { reason: BAD_VALUE_SQLSTATES[state] } });
    }
    // A unique key refused a second row (a language code, a name already taken): a conflict, never a 500.
    if (state === '23505') {
      req.log.warn({ err }, 'unique key refused a row');
      return reply.status(409).send({ code: 'CONFLICT', message: message('CONFLICT', locale) });
    }
    const status = (err as FastifyError).statusCode ?? 500;
    if (status === 429) return reply.status(429).send({ code: 'TOO_MANY_REQUESTS', message: message('TOO_MANY_REQUESTS', locale) });
    if (status >= 400 && status < 500) {
      // Fastify's own refusals (bad JSON, body too large, unsupported media type).
      const code = status === 413 ? 'UPLOAD_LIMIT' : status === 404 ? 'NOT_FOUND' : 'PARAM_INVALID';
      return reply.status(status).send({ code, message: message(code, locale), details: { reason: err.message } });
    }
    req.log.error({ err }, 'unhandled error');
    return reply.status(500).send({ code: 'INTERNAL', message: message('INTERNAL', locale) });
  });
  app.setNotFoundHandler((req, reply) => {
    reply.status(404).send({ code: 'NOT_FOUND', message: message('NOT_FOUND', localeOf(req)) });
  });
}
