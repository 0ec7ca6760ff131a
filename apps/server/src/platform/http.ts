import type { FastifyError, FastifyInstance, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { message, normalizeLocale, type Locale } from '@dau/domain';
import { AppError } from './errors.js';

export function localeOf(req: FastifyRequest): Locale {
  const h = (req.headers['x-locale'] as string | undefined) ?? req.headers['accept-language'] ?? '';
  return normalizeLocale(String(h).split(',')[0]?.trim() ?? '');
}

/** Every error answers { code, message, details? } in the caller's language; never a stack trace. */
export function installErrorHandler(app: FastifyInstance) {
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
