import type { PageAnswer } from '@dau/contract';
import { storage } from './storage';

/** A refused or failed call: the server's { code, message, details } plus the HTTP status (0 = network). */
export class ApiFailure extends Error {
  constructor(
    public status: number,
    public code: string,
    message: string,
    public details?: unknown,
  ) {
    super(message);
  }
}

type Query = Record<string, string | number | boolean | null | undefined | readonly (string | number)[]>;

export function toQueryString(query?: Query): string {
  if (!query) return '';
  const p = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) {
    if (v === undefined || v === null || v === '') continue;
    if (Array.isArray(v)) v.forEach((x) => p.append(k, String(x)));
    else p.set(k, String(v));
  }
  const s = p.toString();
  return s ? `?${s}` : '';
}

/** Listeners for 401 answers (the session ended): the auth provider signs out. */
const unauthorizedListeners = new Set<() => void>();
export const onUnauthorized = (fn: () => void) => {
  unauthorizedListeners.add(fn);
  return () => unauthorizedListeners.delete(fn);
};

export interface RequestOptions {
  /** Extra request headers, e.g. `Idempotency-Key` of a money-moving dialog. */
  headers?: Record<string, string>;
}

export async function request<T>(
  method: string,
  path: string,
  opts: { query?: Query; body?: unknown; raw?: boolean; form?: FormData } & RequestOptions = {},
): Promise<T> {
  const headers: Record<string, string> = { ...opts.headers, 'x-locale': storage.get('language') ?? 'en-US' };
  const token = storage.get('token');
  if (token) headers.authorization = `Bearer ${token}`;
  if (opts.body !== undefined && !opts.form) headers['content-type'] = 'application/json';
  let res: Response;
  try {
    res = await fetch(`/api/v1${path}${toQueryString(opts.query)}`, {
      method,
      headers,
      body: opts.form ?? (opts.body !== undefined ? JSON.stringify(opts.body) : undefined),
    });
  } catch {
    throw new ApiFailure(0, 'NETWORK', 'Failed to load...');
  }
  if (opts.raw && res.ok) return res as unknown as T;
  const text = await res.text();
  let data: unknown = null;
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    data = null;
  }
  if (!res.ok) {
    const e = (data ?? {}) as { code?: string; message?: string; details?: unknown };
    if (res.status === 401 && token) unauthorizedListeners.forEach((fn) => fn());
    throw new ApiFailure(res.status, e.code ?? 'INTERNAL', e.message ?? res.statusText, e.details);
  }
  return data as T;
}

/**
 * A key for the `Idempotency-Key` header (8-100 of [A-Za-z0-9_.:-]): one per opened money dialog, sent with
 * each submit of it, so a double click or a retry moves money once. `crypto.randomUUID` needs a secure
 * context (HTTPS or localhost); a console served over plain HTTP falls back to `getRandomValues`.
 */
export function newIdempotencyKey(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, '0')).join('');
}

export const api = {
  get: <T>(path: string, query?: Query) => request<T>('GET', path, { query }),
  post: <T>(path: string, body?: unknown, opts?: RequestOptions) => request<T>('POST', path, { ...opts, body: body ?? {} }),
  put: <T>(path: string, body?: unknown, opts?: RequestOptions) => request<T>('PUT', path, { ...opts, body: body ?? {} }),
  del: <T>(path: string) => request<T>('DELETE', path),
  /** Sends a multipart form (a file upload); the browser sets its content type and boundary. */
  upload: <T>(path: string, form: FormData) => request<T>('POST', path, { form }),
  /** Downloads a file answer (exports) with the session's token. */
  async download(path: string, query: Query | undefined, filename: string) {
    const res = await request<Response>('GET', path, { query, raw: true });
    const blob = await res.blob();
    const url = URL.createObjectURL(blob);
    const a = document.createElement('a');
    a.href = url;
    a.download = filename;
    document.body.appendChild(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  },
};

/** A page of a list. With `total_exact: false`, `total` is a lower bound ("at least total"): big tables stop counting. */
export type ListAnswer<T> = PageAnswer<T>;
