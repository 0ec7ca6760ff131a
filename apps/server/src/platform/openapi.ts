import type { RouteOptions } from 'fastify';
import { apiError } from '@dau/contract';
import { createJsonSchemaTransformObject, jsonSchemaTransform } from 'fastify-type-provider-zod';

/**
 * The API document (`/api/docs/json`, @fastify/swagger) from the routes' zod schemas, through
 * fastify-type-provider-zod. Schemas registered with an id in zod's global registry (the contract's
 * `MenuNode`, a recursive tree, and `ApiError`) are components the operations refer to; on top of the
 * library's transform every operation gets an `operationId` from its method and path, its error answers
 * (the `ApiError` shape, `platform/http.ts`) and, when public, no security requirement. The document only:
 * what a route validates and how it serialises its answers stays what the route declares.
 */

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Error answers of this route beyond those of every route (the document declares them): the sign-in's 401 and 429. */
    refusals?: readonly (401 | 429)[];
    /**
     * The route answers its refusals in a protocol of its own, not as `ApiError` (the casino wallet API:
     * 200 with the provider's status field, 400 RS_ERROR_WRONG_SYNTAX): the document declares none of the
     * platform's error answers for it; its own answers are its declared schemas.
     */
    ownErrors?: boolean;
  }
}

/** What each error status means, whatever the route (the `code` says which refusal it is). */
export const ERROR_ANSWERS = {
  400: 'Invalid input: a path, query or body field refused (PARAM_INVALID, the fields in details), or a request the server cannot read',
  401: 'Not authenticated: no session token, or its session ended (UNAUTHORIZED); at sign-in, the credentials refused',
  403: "Refused: a permission missing (details.permission), an object outside the caller's scope, or a blocked address",
  404: 'Not found: no such object, or it is gone (NOT_FOUND)',
  409: 'Conflict with the current state: the object changed meanwhile, or a unique value is taken',
  422: 'Refused by a business rule (the message says which)',
  429: 'Too many attempts: wait before trying again (the message says how long)',
} as const;
export type ErrorStatus = keyof typeof ERROR_ANSWERS;

/**
 * Every route: 400 (any input, and the platform's own refusals), 403 (permissions, scopes and the IP
 * blocklist), 404, 409 (a unique key refused anywhere is a conflict), 422; 401 where a session is needed
 * (not on public routes); 429 and the public routes' 401 where the route says so (`config.refusals`).
 */
export function errorStatusesOf(route: Pick<RouteOptions, 'config'>): ErrorStatus[] {
  if (route.config?.ownErrors) return [];
  const statuses = new Set<ErrorStatus>([400, 403, 404, 409, 422, ...(isPublic(route) ? [] : [401 as const]), ...(route.config?.refusals ?? [])]);
  return [...statuses].sort((a, b) => a - b);
}

const isPublic = (route: Pick<RouteOptions, 'config'>) => {
  const access = route.config?.access;
  return !!access && 'public' in access;
};

const words = (s: string) => s.split(/[^A-Za-z0-9]+/).filter(Boolean);
const capital = (w: string) => w.charAt(0).toUpperCase() + w.slice(1);

/**
 * A stable operation id from the method and the path: `GET /api/v1/money/bills` is `getMoneyBills`,
 * `PUT /api/v1/system/roles/:id/permissions` `putSystemRolesByIdPermissions` (`/api/v1` left out; other
 * paths keep their whole path: `getApiHealth`, `postWalletV1ByProviderBet`). The document's test holds
 * them unique.
 */
export function operationIdOf(method: string | readonly string[], url: string): string {
  const verb = [method].flat().map((m) => m.toLowerCase()).join('Or');
  const path = url.replace(/^\/api\/v1(?=\/|$)/, '');
  const parts = path.split('/').flatMap((segment) => {
    if (segment === '*') return ['Rest'];
    // `:id`, `:id(^\\d+$)`: By + the parameter's name (a segment may mix text and parameters).
    return words(segment.replace(/\([^)]*\)/g, '').replace(/:([A-Za-z0-9_]+)/g, ' By $1 ')).map(capital);
  });
  return verb + parts.join('');
}

type Transform = typeof jsonSchemaTransform;

/** The library's transform (zod to JSON Schema, id'd schemas as `$ref`s), plus operation ids, error answers and public routes' security. */
export const documentTransform: Transform = (input) => {
  const { schema, route, url } = input;
  if (!schema || schema.hide) return jsonSchemaTransform(input);
  const declared = (schema.response ?? {}) as Record<string, unknown>;
  const added = errorStatusesOf(route).filter((status) => !(String(status) in declared));
  // The zod schema itself: registered with an id, the library writes it as a $ref to the component.
  const response = { ...declared, ...Object.fromEntries(added.map((status) => [status, apiError])) };
  const out = jsonSchemaTransform({ ...input, schema: { ...schema, response } });
  const answers = out.schema.response as Record<string, object>;
  // Errors are JSON whatever the route produces (a CSV download, a picture): a media type of their own, and a description.
  for (const status of added) answers[status] = { description: ERROR_ANSWERS[status], content: { 'application/json': { schema: answers[status] } } };
  const extra = { operationId: operationIdOf(route.method, url), ...(isPublic(route) ? { security: [] } : {}) };
  return { ...out, schema: { ...out.schema, ...extra } };
};

/** The components: every schema of zod's global registry that has an id, in OpenAPI 3.0's dialect like the operations. */
export const documentTransformObject = createJsonSchemaTransformObject({ zodToJsonConfig: { target: 'openapi-3.0' } });
