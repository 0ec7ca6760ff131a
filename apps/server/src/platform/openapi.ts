import type { RouteOptions } from 'fastify';
import { z } from 'zod';
import { apiError, component } from '@dau/contract';
import { createJsonSchemaTransformObject, jsonSchemaTransform } from 'fastify-type-provider-zod';
import { listSpecs } from './listing.js';

/**
 * The API document (`/api/docs/json`, @fastify/swagger) from the routes' zod schemas, through
 * fastify-type-provider-zod. Schemas registered with an id in zod's global registry are components the
 * operations refer to: the contract's `MenuNode` (a recursive tree) and `ApiError`, the rows several
 * operations answer (the contract names its own with `component`, the resource layer each declaration's
 * row, and LIST_ROW_COMPONENTS below the rows of the server's hand-written lists). On top of the library's
 * transform every operation gets an `operationId` from its method and path, its error answers (the
 * `ApiError` shape, `platform/http.ts`) and, when public, no security requirement. The document only:
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

/**
 * Rows of the server's hand-written lists (platform/listing.ts, by list name) that several operations
 * answer: the list screens that share them, and the reads and changes of one row. Named in the document
 * after what they are, so a generated client has one type for each.
 */
export const LIST_ROW_COMPONENTS: Readonly<Record<string, { list: string; description: string }>> = {
  BettorRow: { list: 'user', description: 'A bettor (user, user_list, cs_user and online_statistical lists; a bettor read or changed)' },
  ActivityQualificationRow: { list: 'activity_qualification', description: 'An activity qualification (activity_qualification and cs_activity_qualification lists)' },
  BillRow: { list: 'bill', description: 'A bill: one movement of a cash or credit account (bill, bill_credit, cs_bill, admin_bill and archive lists)' },
  RechargeRow: { list: 'recharge_list', description: 'A recharge (recharge_list, cs_recharge and recharge_archive lists; a recharge re-queried or reconciled)' },
  WithdrawalRow: { list: 'withdraw_list', description: 'A withdrawal (withdraw_list, cs_withdraw and withdrawal_archive lists; a withdrawal approved, refused, re-queried or reconciled)' },
  OrderRow: { list: 'order_list', description: 'A betting order (order_list, cs_order, archive and bet_remind lists; the order of a detail)' },
  MatchRow: { list: 'match_list', description: "A match of the feed with the operator's flags (match_list; a match's flags changed)" },
};

/** Gives the rows of LIST_ROW_COMPONENTS their names, once their lists are registered (a row the contract already named keeps its name). */
function nameListRows() {
  for (const [id, { list, description }] of Object.entries(LIST_ROW_COMPONENTS)) {
    const row = listSpecs().get(list)?.row;
    if (row && !z.globalRegistry.get(row)?.id) component(row, id, { description });
  }
}

type Transform = typeof jsonSchemaTransform;

/** The library's transform (zod to JSON Schema, id'd schemas as `$ref`s), plus operation ids, error answers and public routes' security. */
export const documentTransform: Transform = (input) => {
  // Every route is registered when the document is built: the lists' rows are named before the first operation is written.
  nameListRows();
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

const registryComponents = createJsonSchemaTransformObject({ zodToJsonConfig: { target: 'openapi-3.0' } });
type TransformObject = typeof registryComponents;
type Json = Record<string, unknown>;
const REF = '#/components/schemas/';

/** The component names a part of the document refers to (`$ref`), added to `into`. */
function refsIn(v: unknown, into: Set<string>): Set<string> {
  if (Array.isArray(v)) v.forEach((x) => refsIn(x, into));
  else if (v && typeof v === 'object') {
    for (const [k, x] of Object.entries(v)) {
      if (k === '$ref' && typeof x === 'string' && x.startsWith(REF)) into.add(x.slice(REF.length));
      else refsIn(x, into);
    }
  }
  return into;
}

/**
 * The components: every schema of zod's global registry that has an id, in OpenAPI 3.0's dialect like the
 * operations. The library writes each twice, as answered and as taken (`<id>Input`); a taken variant that
 * no operation refers to (a row is answered, not sent) is left out.
 */
export const documentTransformObject: TransformObject = (input) => {
  const built = registryComponents(input);
  const doc = built as Json & { components?: { schemas?: Record<string, unknown> } };
  const schemas = doc.components?.schemas;
  if (!schemas) return built;
  const { components, ...rest } = doc;
  const used = refsIn(rest, new Set());
  for (const pending = [...used]; pending.length; ) {
    for (const name of refsIn(schemas[pending.pop()!], new Set())) {
      if (used.has(name)) continue;
      used.add(name);
      pending.push(name);
    }
  }
  for (const name of Object.keys(schemas)) {
    if (name.endsWith('Input') && name.slice(0, -'Input'.length) in schemas && !used.has(name)) delete schemas[name];
  }
  return { ...built, components } as typeof built;
};
