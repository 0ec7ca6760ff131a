import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import openapiTS, { astToString, type OpenAPI3 } from 'openapi-typescript';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { buildApp, type DauApp } from '../src/app.js';
import { answerSerializer } from '../src/platform/http.js';
import { seed } from '../src/seed.js';
import { ADMIN_PASSWORD, freshDatabase } from './helpers.js';

/**
 * The OpenAPI document (`/api/docs/json`, built by @fastify/swagger from the zod schemas) describes
 * every route, sandbox routes included: a short summary and the schema of its success answer (JSON, or
 * the file type of a download). Answers are serialised from that schema, so an undeclared field never
 * leaves the server, and a client generated from the document is typed: every operation has a unique
 * operationId and its error answers (the `ApiError` component), the recursive menu tree is the `MenuNode`
 * component, the rows several operations answer are components they refer to (`BettorRow`, a resource's
 * `<Name>Row`…), and openapi-typescript generates types from the document that type-check.
 */

type Schema = Record<string, any>;
let built: DauApp;
let disposeDb: () => Promise<void>;
let doc: Schema;

beforeAll(async () => {
  const database = await freshDatabase();
  disposeDb = database.dispose;
  await seed(database.db, { adminPassword: ADMIN_PASSWORD, demo: false });
  built = await buildApp({ database, sandboxRoutes: true });
  await built.app.ready();
  const login = await built.app.inject({ method: 'POST', url: '/api/v1/auth/login', payload: { account: 'admin', password: ADMIN_PASSWORD } });
  const token = (JSON.parse(login.body) as { token: string }).token;
  doc = JSON.parse((await built.app.inject({ url: '/api/docs/json', headers: { authorization: `Bearer ${token}` } })).body) as Schema;
}, 180_000);
afterAll(async () => {
  await built?.app.close();
  await disposeDb?.();
});

const operations = () =>
  Object.entries<Schema>(doc.paths).flatMap(([path, item]) => Object.entries<Schema>(item).map(([method, op]) => ({ name: `${method.toUpperCase()} ${path}`, path, op })));

/** JSON Schema keywords of later drafts that OpenAPI 3.0.3 does not know, found anywhere in a schema. */
function notOpenApi30(s: unknown, at: string, out: string[]) {
  if (!s || typeof s !== 'object') return;
  if (Array.isArray(s)) return s.forEach((x, i) => notOpenApi30(x, `${at}[${i}]`, out));
  const o = s as Schema;
  for (const k of ['const', 'prefixItems', '$defs', '$schema', 'unevaluatedProperties', 'dependentSchemas']) if (k in o) out.push(`${at}: ${k}`);
  if (Array.isArray(o.type) || o.type === 'null') out.push(`${at}: type ${JSON.stringify(o.type)}`);
  for (const k of ['exclusiveMinimum', 'exclusiveMaximum']) if (k in o && typeof o[k] !== 'boolean') out.push(`${at}: numeric ${k}`);
  for (const [k, v] of Object.entries(o)) if (k !== 'example' && k !== 'default' && k !== 'enum') notOpenApi30(v, `${at}.${k}`, out);
}

/** Every `$ref` anywhere in the document, with where it is. */
function refsOf(s: unknown, at: string, out: { at: string; ref: string }[]) {
  if (!s || typeof s !== 'object') return out;
  if (Array.isArray(s)) {
    s.forEach((x, i) => refsOf(x, `${at}[${i}]`, out));
    return out;
  }
  for (const [k, v] of Object.entries(s as Schema)) {
    if (k === '$ref' && typeof v === 'string') out.push({ at, ref: v });
    else refsOf(v, `${at}.${k}`, out);
  }
  return out;
}

const ERROR_REF = '#/components/schemas/ApiError';
const jsonSchemaOf = (answer: Schema | undefined): Schema | undefined => answer?.content?.['application/json']?.schema;

describe('OpenAPI document', () => {
  it('is a valid OpenAPI 3.0.3 document of every route', () => {
    expect(doc.openapi).toBe('3.0.3');
    expect(doc.info.title).toBeTruthy();
    const ops = operations();
    const problems: string[] = [];
    for (const { name, path, op } of ops) {
      const declared = new Set((op.parameters ?? []).filter((p: Schema) => p.in === 'path').map((p: Schema) => p.name));
      for (const [, param] of path.matchAll(/\{([^}]+)\}/g)) if (!declared.has(param)) problems.push(`${name}: path parameter ${param} not declared`);
      if (!op.responses || !Object.keys(op.responses).length) problems.push(`${name}: no responses`);
      notOpenApi30(op, name, problems);
    }
    expect(problems).toEqual([]);
    console.log(`openapi: ${ops.length} operations`);
    expect(ops.length).toBeGreaterThanOrEqual(195);
  });

  it('gives every route a summary and the schema of its success answer', () => {
    const missing: string[] = [];
    let withSummary = 0;
    let withSchema = 0;
    for (const { name, op } of operations()) {
      const summary = typeof op.summary === 'string' && op.summary.trim().length > 0;
      const success = Object.entries<Schema>(op.responses ?? {}).find(([status]) => /^2\d\d$/.test(status))?.[1];
      const schema = Object.values<Schema>(success?.content ?? {}).some((c) => c.schema && Object.keys(c.schema).length > 0);
      if (summary) withSummary++;
      if (schema) withSchema++;
      if (!summary || !schema) missing.push(`${name}:${summary ? '' : ' no summary'}${schema ? '' : ' no response schema'}`);
    }
    console.log(`openapi: ${withSummary} operations with a summary, ${withSchema} with a success schema, ${missing.length} lacking one`);
    expect(missing).toEqual([]);
  });

  it('names the shared schemas as components, and every $ref resolves', () => {
    const schemas = doc.components?.schemas ?? {};
    const refs = refsOf(doc, '', []);
    const dangling = refs.filter(({ ref }) => !ref.startsWith('#/components/schemas/') || !(ref.slice('#/components/schemas/'.length) in schemas));
    expect(dangling).toEqual([]);
    // The recursive menu tree: a component that refers to itself, referred to by the two answers that carry it.
    expect(schemas.MenuNode?.properties?.children?.items?.$ref).toBe('#/components/schemas/MenuNode');
    const menus = jsonSchemaOf(doc.paths['/api/v1/auth/me'].get.responses['200'])?.properties?.menus;
    expect(menus?.items?.$ref).toBe('#/components/schemas/MenuNode');
    const tree = jsonSchemaOf(doc.paths['/api/v1/system/roles/{id}/permissions'].get.responses['200'])?.properties?.tree;
    expect(tree?.items?.$ref).toBe('#/components/schemas/MenuNode');
    expect(schemas.ApiError?.required).toEqual(['code', 'message']);
    const problems: string[] = [];
    for (const [name, schema] of Object.entries(schemas)) notOpenApi30(schema, `components.schemas.${name}`, problems);
    expect(problems).toEqual([]);
    console.log(`openapi: ${Object.keys(schemas).length} component schemas, ${refs.length} references`);
  });

  it('names the rows several operations answer as components, to which those operations refer', () => {
    const schemas: Record<string, Schema> = doc.components.schemas;
    // Every operation (by name) that refers to each component, directly or through other components.
    const users = new Map<string, Set<string>>();
    const name = (ref: string) => ref.slice('#/components/schemas/'.length);
    for (const { name: op, op: operation } of operations()) {
      const pending = refsOf(operation, '', []).map(({ ref }) => name(ref));
      for (const seen = new Set<string>(); pending.length; ) {
        const c = pending.pop()!;
        if (seen.has(c)) continue;
        seen.add(c);
        users.set(c, (users.get(c) ?? new Set()).add(op));
        pending.push(...refsOf(schemas[c], '', []).map(({ ref }) => name(ref)));
      }
    }
    const shared = [
      // Rows of the server's hand-written lists (platform/openapi.ts LIST_ROW_COMPONENTS).
      'BettorRow', 'BillRow', 'OrderRow', 'RechargeRow', 'WithdrawalRow', 'ActivityQualificationRow', 'MatchRow',
      // Rows the contract names.
      'AdminRow', 'RoleRow', 'UserInfo', 'PendingChangeRow', 'JackpotIssueRow', 'JackpotTicketRow', 'CampaignRow', 'TronWalletRow', 'CasinoRoundRow',
      // A row of the resource layer (one per declaration it builds, `x-resource` naming it).
      'IpBlackRow', 'BetConfigRow',
    ];
    const problems: string[] = [];
    for (const id of shared) {
      if (!schemas[id]) problems.push(`${id}: no component`);
      else if ((users.get(id)?.size ?? 0) < 2) problems.push(`${id}: referred to by ${[...(users.get(id) ?? [])].join(', ') || 'no operation'}`);
    }
    // Every component is answered or taken by some operation: an unused input variant (`<id>Input`) is left out.
    for (const id of Object.keys(schemas)) if (!users.has(id)) problems.push(`${id}: no operation refers to it`);
    expect(problems).toEqual([]);
    // The bettor lists and the operations on one bettor answer the one BettorRow; a resource's list, read and change its row.
    const bettorRef = '#/components/schemas/BettorRow';
    for (const path of ['/api/v1/money/bettors', '/api/v1/money/user_list', '/api/v1/money/cs/bettors', '/api/v1/money/online']) {
      expect(jsonSchemaOf(doc.paths[path].get.responses['200'])?.properties?.items?.items?.$ref, path).toBe(bettorRef);
    }
    // One bettor: the BettorRow, with what other modules add on the detail (the number's network, issue 28).
    const one = jsonSchemaOf(doc.paths['/api/v1/money/bettors/{id}'].get.responses['200']);
    expect(one?.$ref ?? one?.allOf?.[0]?.$ref).toBe(bettorRef);
    expect(jsonSchemaOf(doc.paths['/api/v1/money/withdrawals/{id}/approve'].post.responses['200'])?.$ref).toBe('#/components/schemas/WithdrawalRow');
    expect(jsonSchemaOf(doc.paths['/api/v1/system/ip_black/{id}'].put.responses['200'])?.$ref).toBe('#/components/schemas/IpBlackRow');
    expect(schemas.IpBlackRow['x-resource']).toBe('ip_black');
    // The list answer's envelope is not a component: each list's items differ (OpenAPI 3.0 has no generic types).
    console.log(`openapi: ${shared.length} shared rows checked, ${Object.keys(schemas).length} components, each referred to by an operation`);
  });

  it('gives every operation a unique operationId, a success answer and its error answers', () => {
    const problems: string[] = [];
    const ids = new Map<string, string>();
    for (const { name, op } of operations()) {
      const id = op.operationId;
      if (typeof id !== 'string' || !/^[a-z][A-Za-z0-9]*$/.test(id)) problems.push(`${name}: operationId ${JSON.stringify(id)}`);
      else if (ids.has(id)) problems.push(`${name}: operationId ${id} also names ${ids.get(id)}`);
      else ids.set(id, name);
      const statuses = Object.keys(op.responses ?? {});
      if (!statuses.some((s) => /^2\d\d$/.test(s))) problems.push(`${name}: no 2xx answer`);
      // Public operations need no session (security: []), so they are not refused with 401 by the access check.
      const isPublic = Array.isArray(op.security) && op.security.length === 0;
      // The casino wallet API answers in its providers' protocol (config.ownErrors): no ApiError answer declared.
      const ownProtocol = name.includes(' /wallet/v1/');
      for (const status of ownProtocol ? [] : ['400', ...(isPublic ? [] : ['401']), '403', '404', '409', '422']) {
        const answer = op.responses?.[status];
        if (jsonSchemaOf(answer)?.$ref !== ERROR_REF) problems.push(`${name}: ${status} is not the error answer`);
        else if (!answer.description || answer.description === 'Default Response') problems.push(`${name}: ${status} has no description`);
      }
      for (const [status, answer] of Object.entries<Schema>(op.responses ?? {})) {
        if (/^4\d\d$/.test(status) && jsonSchemaOf(answer)?.$ref !== ERROR_REF) problems.push(`${name}: ${status} is not the error answer`);
      }
    }
    expect(problems).toEqual([]);
    const bet = doc.paths['/wallet/v1/{provider}/transaction/bet'].post;
    expect(Object.keys(bet.responses)).toEqual(['200']);
    // The sign-in is public, refuses credentials (401) and throttles repeated failures (429).
    const signIn = doc.paths['/api/v1/auth/login'].post;
    expect(signIn.operationId).toBe('postAuthLogin');
    expect(signIn.security).toEqual([]);
    expect(Object.keys(signIn.responses)).toEqual(['200', '400', '401', '403', '404', '409', '422', '429']);
    expect(doc.paths['/api/v1/auth/me'].get.security).toBeUndefined();
    expect(doc.paths['/api/v1/money/bills'].get.operationId).toBe('getMoneyBills');
  });

  it('generates a typed client with openapi-typescript that type-checks', { timeout: 120_000 }, async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dau-openapi-'));
    try {
      // Redocly's checks inside openapi-typescript (unresolved $refs, invalid schemas, duplicate operationIds) throw.
      const types = astToString(await openapiTS(doc as OpenAPI3, { silent: true }));
      fs.writeFileSync(path.join(dir, 'api.ts'), types);
      // A caller of the generated types: the recursive tree, an operation by its id, the error answer.
      fs.writeFileSync(
        path.join(dir, 'use.ts'),
        [
          "import type { components, operations, paths } from './api';",
          "type Json<T> = T extends { content: { 'application/json': infer B } } ? B : never;",
          "type MenuNode = components['schemas']['MenuNode'];",
          "type Me = Json<paths['/api/v1/auth/me']['get']['responses'][200]>;",
          "type RolePermissions = Json<operations['getSystemRolesByIdPermissions']['responses'][200]>;",
          'const depth = (nodes: MenuNode[]): number => nodes.reduce((d, n) => Math.max(d, 1 + depth(n.children)), 0);',
          'export const deepest = (me: Me, role: RolePermissions): number => Math.max(depth(me.menus), depth(role.tree));',
          "export const icon = (n: MenuNode): string | null => n.icon ?? null;",
          "export const signIn: Json<operations['postAuthLogin']['requestBody']> = { account: 'admin', password: 'secret' };",
          "export const throttled: Json<operations['postAuthLogin']['responses'][429]> = { code: 'LOGIN_THROTTLED', message: 'Wait' };",
          "export const missing: Json<operations['getMoneyBills']['responses'][404]> = { code: 'NOT_FOUND', message: 'Not found', details: { id: 1 } };",
          "export const refused: components['schemas']['ApiError']['code'] = missing.code;",
          // Shared rows: one type for the bettor of every bettor list and of the read of one; a resource's row.
          "type BettorRow = components['schemas']['BettorRow'];",
          "export const phones = (page: Json<operations['getMoneyBettors']['responses'][200]>): string[] => page.items.map((b: BettorRow) => b.phone);",
          "export const one = (b: Json<operations['getMoneyBettorsById']['responses'][200]>): BettorRow => b;",
          "export const online = (page: Json<operations['getMoneyOnline']['responses'][200]>): BettorRow[] => page.items;",
          "export const address = (r: Json<operations['getSystemIpBlackById']['responses'][200]>): components['schemas']['IpBlackRow']['ip'] => r.ip;",
        ].join('\n'),
      );
      const program = ts.createProgram([path.join(dir, 'use.ts')], {
        strict: true,
        noEmit: true,
        target: ts.ScriptTarget.ES2022,
        module: ts.ModuleKind.ESNext,
        moduleResolution: ts.ModuleResolutionKind.Bundler,
        lib: ['lib.es2022.d.ts'],
        types: [],
      });
      const diagnostics = ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n') + (d.file ? ` (${path.basename(d.file.fileName)}:${d.file.getLineAndCharacterOfPosition(d.start ?? 0).line + 1})` : ''));
      expect(diagnostics).toEqual([]);
      expect(program.getSourceFiles().some((f) => f.fileName.endsWith('api.ts'))).toBe(true);
      console.log(`openapi: openapi-typescript wrote ${types.split('\n').length} lines of types, type-checked with a caller`);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('serialises an answer from its schema: undeclared fields never leave, a mismatch is reduced to declared fields', () => {
    const schema = z.object({ id: z.number(), items: z.array(z.object({ name: z.string() })) });
    const serialise = answerSerializer({ schema, method: 'GET', url: '/x' });
    const leaky = { id: 1, password_hash: 'secret', items: [{ name: 'a', google_secret: 'S' }] };
    expect(JSON.parse(serialise(leaky))).toEqual({ id: 1, items: [{ name: 'a' }] });
    // A server bug (a number where a string was declared) still answers, without the undeclared fields.
    const original = console.error;
    const logged: string[] = [];
    console.error = (m: string) => void logged.push(m);
    try {
      expect(JSON.parse(serialise({ ...leaky, items: [{ name: 5, google_secret: 'S' }] }))).toEqual({ id: 1, items: [{ name: 5 }] });
    } finally {
      console.error = original;
    }
    expect(logged.join('\n')).toContain('items.0.name');
  });
});
