import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type DauApp } from '../src/app.js';
import { seed } from '../src/seed.js';
import { ADMIN_PASSWORD, freshDatabase } from './helpers.js';

/**
 * Every route of the OpenAPI document (`/api/docs/json`, built from the zod schemas), sandbox routes
 * included, gets bad values in each path parameter, query parameter and body field, one at a time (the
 * others keep a plausible value), plus malformed bodies and URLs, as the super admin (past the
 * permission gate). No answer may be a 5xx, and none may carry a stack, SQL text or a file path.
 */

type Schema = Record<string, any>;
interface Op {
  method: string;
  path: string;
  parameters: { in: 'path' | 'query'; name: string; required?: boolean; schema: Schema }[];
  body?: Schema;
}
interface Probe {
  method: string;
  url: string;
  /** Raw JSON text (so -0, 1e999 and 2^53 + 1 reach the server as written). */
  payload?: string;
  what: string;
}

const NOW = new Date('2026-01-01T00:00:00Z').toISOString();
const STRING_CANDIDATES = ['a', '1', '123456', 'en-US', '#1677ff', '10.0.0.1', 'abc_1', '{}', NOW];

/** A value the schema accepts as far as we can tell (the other fields of a probe). */
function plausible(s: Schema | undefined): unknown {
  if (!s) return 'a';
  if (s.default !== undefined) return s.default;
  if (s.const !== undefined) return s.const;
  if (s.enum) return s.enum[0];
  const alt = s.anyOf ?? s.oneOf ?? s.allOf;
  if (alt) return plausible(alt.find((x: Schema) => x.type !== 'null') ?? alt[0]);
  const type = Array.isArray(s.type) ? s.type.find((x: string) => x !== 'null') : s.type;
  switch (type) {
    case 'integer':
    case 'number':
      return Math.min(Math.max(1, s.minimum ?? 1, s.exclusiveMinimum !== undefined ? Math.floor(s.exclusiveMinimum) + 1 : 1), s.maximum ?? 1);
    case 'boolean':
      return true;
    case 'array':
      return Array.from({ length: Math.max(1, s.minItems ?? 1) }, () => plausible(s.items));
    case 'object': {
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries<Schema>(s.properties ?? {})) out[k] = plausible(v);
      return out;
    }
    default: {
      if (s.format === 'date-time') return NOW;
      const re = s.pattern ? new RegExp(s.pattern) : null;
      const fits = (c: string) => (!re || re.test(c)) && c.length >= (s.minLength ?? 0) && c.length <= (s.maxLength ?? Infinity);
      return STRING_CANDIDATES.find(fits) ?? 'a'.repeat(Math.max(1, s.minLength ?? 1));
    }
  }
}

/** The kind of value a schema wants (decides which bad values it gets first). */
function kindOf(s: Schema | undefined): 'number' | 'string' | 'other' {
  if (!s) return 'string';
  const alt = s.anyOf ?? s.oneOf;
  if (alt) return kindOf(alt.find((x: Schema) => x.type !== 'null') ?? alt[0]);
  const type = Array.isArray(s.type) ? s.type.find((x: string) => x !== 'null') : s.type;
  return type === 'integer' || type === 'number' ? 'number' : type === 'string' || type === undefined ? 'string' : 'other';
}

/**
 * Bad values per kind: every parameter gets the first list, plus `extra` values of the second list
 * taken in turn (a rotation keeps the run to a few thousand requests while every value is used often).
 */
interface Values {
  always: Record<'number' | 'string' | 'other', string[]>;
  rotate: string[];
  extra: number;
}

/** JSON body fields, as raw JSON text (so -0, 1e999 and 2^53 + 1 reach the server as written). */
const BODY: Values = {
  always: {
    string: [JSON.stringify('a\u0000b'), '2147483648'],
    number: ['9007199254740993', '2147483648', '1.5', '-1', JSON.stringify('a\u0000b')],
    other: [JSON.stringify('a\u0000b'), JSON.stringify(['a\u0000b'])],
  },
  rotate: ['-9007199254740993', '1e999', '-0', '""', JSON.stringify('x'.repeat(20_000)), 'true', '"abc"', '[]', '{}', 'null', JSON.stringify({ a: 'b\u0000' }), JSON.stringify('\u0000'), '-2147483649', '0'],
  extra: 3,
};

/** Query and path parameters, already URL-encoded. */
const PARAM: Values = {
  always: {
    string: ['a%00b', '2147483648'],
    number: ['a%00b', '9007199254740993', '2147483648', '1.5', '-1'],
    other: ['a%00b', '2147483648'],
  },
  rotate: ['%00', '-9007199254740993', '1e999', '-0', '', 'x'.repeat(5_000), 'abc', '%E0%A4%A', 'NaN', '0', '[]', '-2147483649'],
  extra: 2,
};

let turn = 0;
function badValues(v: Values, s: Schema | undefined): string[] {
  const picked = [...v.always[kindOf(s)]];
  for (let i = 0; i < v.extra; i++) picked.push(v.rotate[turn++ % v.rotate.length]);
  return picked;
}

/** Whole bodies that are not what any route expects. */
const WHOLE_BODIES = ['{"a":', '[]', '"text"', 'null', '123', '{"a\\u0000b":1}', '{"__proto__":{"x":1}}', JSON.stringify('\u0000')];

const encodeQuery = (q: Record<string, unknown>) =>
  Object.entries(q)
    .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(String(v))}`)
    .join('&');

function operations(doc: Schema): Op[] {
  const ops: Op[] = [];
  for (const [path, item] of Object.entries<Schema>(doc.paths)) {
    for (const [method, op] of Object.entries<Schema>(item)) {
      ops.push({ method: method.toUpperCase(), path, parameters: op.parameters ?? [], body: op.requestBody?.content?.['application/json']?.schema });
    }
  }
  return ops;
}

function probes(op: Op): Probe[] {
  const out: Probe[] = [];
  const pathParams = op.parameters.filter((p) => p.in === 'path');
  const queryParams = op.parameters.filter((p) => p.in === 'query');
  const pathValues = Object.fromEntries(pathParams.map((p) => [p.name, String(plausible(p.schema))]));
  const baseQuery = Object.fromEntries(queryParams.filter((p) => p.required).map((p) => [p.name, plausible(p.schema)]));
  const baseBody = op.body ? (plausible(op.body) as Record<string, unknown>) : undefined;
  const urlOf = (path: Record<string, string>, query: string) => {
    const p = op.path.replace(/\{([^}]+)\}/g, (_, n: string) => (n in path ? path[n] : encodeURIComponent(pathValues[n])));
    return query ? `${p}?${query}` : p;
  };
  const baseQs = encodeQuery(baseQuery);
  const payload = baseBody === undefined ? undefined : JSON.stringify(baseBody);

  for (const p of pathParams) {
    for (const v of new Set([...badValues(PARAM, p.schema), '0', 'abc', '%E0%A4%A'])) {
      if (v === '') continue; // an empty segment is another route
      out.push({ method: op.method, url: urlOf({ ...pathValues, [p.name]: v }, baseQs), payload, what: `path ${p.name}=${v.slice(0, 20)}` });
    }
  }
  for (const p of queryParams) {
    const rest = encodeQuery(Object.fromEntries(Object.entries(baseQuery).filter(([k]) => k !== p.name)));
    const name = encodeURIComponent(p.name);
    const variants = [...badValues(PARAM, p.schema).map((v) => `${name}=${v}`), turn % 2 ? `${name}=1&${name}=2` : `${name}[a]=1`];
    for (const v of variants) out.push({ method: op.method, url: urlOf(pathValues, [rest, v].filter(Boolean).join('&')), payload, what: `query ${v.slice(0, 30)}` });
  }
  if (op.body) {
    for (const [key, schema] of Object.entries<Schema>(op.body.properties ?? {})) {
      for (const v of badValues(BODY, schema)) {
        const text = JSON.stringify({ ...baseBody, [key]: '__RAW__' }).replace('"__RAW__"', v);
        out.push({ method: op.method, url: urlOf(pathValues, baseQs), payload: text, what: `body ${key}=${v.slice(0, 20)}` });
      }
    }
    for (const v of WHOLE_BODIES) out.push({ method: op.method, url: urlOf(pathValues, baseQs), payload: v, what: `body ${v.slice(0, 20)}` });
  }
  // A route without parameters still gets a NUL in an unexpected query parameter.
  if (!pathParams.length && !queryParams.length && !op.body) out.push({ method: op.method, url: urlOf(pathValues, 'x=a%00b'), what: 'query x=a%00b' });
  return out;
}

/** What an answer must never show: a stack, SQL, a file path. */
const LEAKS = [/\n\s+at /, /\bat [\w.<>]+ \(/, /node_modules/, /\/work\//, /\/src\//, /\.ts:\d+/, /\bselect\b[\s\S]*\bfrom\b/i, /\binsert into\b/i, /\bupdate\s+"\w+"\s+set\b/i, /violates/i, /syntax error/i, /relation "/i, /invalid input syntax/i, /\bPostgres/i, /\bdrizzle/i];

let built: DauApp;
let disposeDb: () => Promise<void>;
let token = '';

async function signIn() {
  const r = await built.app.inject({ method: 'POST', url: '/api/v1/auth/login', payload: { account: 'admin', password: ADMIN_PASSWORD }, remoteAddress: '127.0.0.2' });
  if (r.statusCode !== 200) throw new Error(`sign-in failed: ${r.statusCode} ${r.body}`);
  token = (JSON.parse(r.body) as { token: string }).token;
}

beforeAll(async () => {
  const database = await freshDatabase();
  disposeDb = database.dispose;
  await seed(database.db, { adminPassword: ADMIN_PASSWORD, demo: false });
  built = await buildApp({ database, sandboxRoutes: true });
  await built.app.ready();
  await signIn();
}, 180_000);
afterAll(async () => {
  await built?.app.close();
  await disposeDb?.();
});

describe('OpenAPI-driven fuzz', () => {
  it('answers every bad input of every route with a 4xx in our shape, never a 5xx or a leak', { timeout: 600_000 }, async () => {
    const doc = JSON.parse((await built.app.inject({ url: '/api/docs/json', headers: { authorization: `Bearer ${token}` } })).body) as Schema;
    const ops = operations(doc);
    expect(ops.length).toBeGreaterThan(150);
    const all = ops.flatMap(probes);
    all.push(
      { method: 'GET', url: '/%E0%A4%A', what: 'malformed URL' },
      { method: 'GET', url: '/api/v1/system/logs/%E0%A4%A', what: 'malformed URL' },
      { method: 'GET', url: '/api/v1/system/logs?content=%E0%A4%A', what: 'malformed query' },
    );
    const failures: string[] = [];
    const fiveHundreds = new Set<string>();
    let count5xx = 0;
    for (const p of all) {
      const send = () =>
        built.app.inject({
          method: p.method as never,
          url: p.url,
          headers: { authorization: `Bearer ${token}`, ...(p.payload !== undefined ? { 'content-type': 'application/json' } : {}) },
          remoteAddress: '127.0.0.1',
          ...(p.payload !== undefined ? { payload: p.payload } : {}),
        });
      let res;
      try {
        res = await send();
      } catch (err) {
        // A streamed answer that broke after its headers: as bad as a 500.
        count5xx++;
        fiveHundreds.add(`${p.method} ${p.url.split('?')[0]}`);
        failures.push(`broken ${p.method} ${p.url.slice(0, 80)} ${p.what}: ${(err as Error).message}`);
        continue;
      }
      if (res.statusCode === 401 && !p.url.startsWith('/api/v1/auth/login')) {
        // A probe of the sign-out (or a password change) ended the session: sign in again and retry once.
        await signIn();
        res = await send();
      }
      const route = `${p.method} ${p.url.split('?')[0]}`;
      if (res.statusCode >= 500) {
        count5xx++;
        fiveHundreds.add(route);
        failures.push(`${res.statusCode} ${route} ${p.what}: ${res.body.slice(0, 160)}`);
        continue;
      }
      const leak = LEAKS.find((re) => re.test(res.body));
      if (leak && (res.headers['content-type'] ?? '').toString().includes('json')) failures.push(`leak ${leak} ${route} ${p.what}: ${res.body.slice(0, 160)}`);
      if (res.statusCode >= 400) {
        const body = (() => {
          try {
            return JSON.parse(res.body) as { code?: unknown; message?: unknown };
          } catch {
            return null;
          }
        })();
        if (typeof body?.code !== 'string' || typeof body?.message !== 'string') failures.push(`shape ${res.statusCode} ${route} ${p.what}: ${res.body.slice(0, 160)}`);
      }
    }
    console.log(`fuzz: ${ops.length} routes, ${all.length} requests, ${count5xx} answers of 5xx on ${fiveHundreds.size} routes, ${failures.length} failures`);
    expect(failures.slice(0, 40)).toEqual([]);
  });
});
