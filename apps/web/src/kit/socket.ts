import {
  SOCKET_CLOSE_NO_RECONNECT,
  SOCKET_FALLBACK_PORT,
  SOCKET_MAX_FAILURES_DEFAULT,
  SOCKET_PING_INTERVAL_MS,
  SOCKET_RETRY_DELAY_MS,
} from '@dau/domain';

/**
 * The live connection (spec §4 "Socket connection", §7 "Socket", docs/architecture.md "Realtime").
 *
 * - Every 5 s: the text {"type":"ping"} without a session, or with one the envelope
 *   { kid: session_id, iv, data } where data = AES-256-GCM(ws_key) of { type: 1, locale, token }.
 * - Outgoing messages always carry locale and token and are encrypted when a key is known.
 * - Incoming messages are an encrypted envelope { iv, data } or plain JSON of SocketMessage.
 * - Closed with 3001: deliberate, no reconnect. Otherwise reconnect with backoff; after more than
 *   `maxFailures` failed attempts in a row (when > 0) it stops.
 * - A send while the socket is not open is retried after 1 s.
 */
export interface SocketMessage {
  status: boolean;
  message?: string;
  content?: unknown;
  count?: number;
  type: number;
}

export type SocketStatus = 'connecting' | 'open' | 'closed' | 'stopped';

export interface SocketSession {
  token: string | null;
  wsKey: string | null;
  sessionId: string | null;
  locale: string;
}

export interface SocketOptions {
  url: string;
  session(): SocketSession;
  onMessage(m: SocketMessage): void;
  onStatus?(s: SocketStatus): void;
  maxFailures?: number;
  pingIntervalMs?: number;
  retryDelayMs?: number;
  /** How many times a delayed send is retried before it is dropped. */
  maxSendRetries?: number;
}

/** VITE_WS_URL, else the page's own host at /ws, else (page not served over http) localhost:6009. */
export function socketUrl(): string {
  const configured = import.meta.env.VITE_WS_URL as string | undefined;
  if (configured) return configured;
  const { protocol, host } = window.location;
  if ((protocol === 'http:' || protocol === 'https:') && host) return `${protocol === 'https:' ? 'wss' : 'ws'}://${host}/ws`;
  return `ws://localhost:${SOCKET_FALLBACK_PORT}/ws`;
}

export function socketSupported(): boolean {
  return typeof window !== 'undefined' && typeof window.WebSocket === 'function';
}

// --- AES-GCM (WebCrypto; output is ciphertext followed by the 16-byte tag) ---------------------------

const b64encode = (bytes: Uint8Array) => {
  let s = '';
  bytes.forEach((b) => (s += String.fromCharCode(b)));
  return btoa(s);
};
const b64decode = (text: string) => Uint8Array.from(atob(text), (c) => c.charCodeAt(0));

export function cryptoAvailable(): boolean {
  return typeof crypto !== 'undefined' && !!crypto.subtle;
}

const keyCache = new Map<string, Promise<CryptoKey>>();
function importKey(wsKey: string): Promise<CryptoKey> {
  let k = keyCache.get(wsKey);
  if (!k) {
    k = crypto.subtle.importKey('raw', b64decode(wsKey), { name: 'AES-GCM' }, false, ['encrypt', 'decrypt']);
    keyCache.set(wsKey, k);
  }
  return k;
}

export async function encryptEnvelope(wsKey: string, sessionId: string, payload: unknown) {
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const key = await importKey(wsKey);
  const data = new Uint8Array(await crypto.subtle.encrypt({ name: 'AES-GCM', iv }, key, new TextEncoder().encode(JSON.stringify(payload))));
  return { kid: sessionId, iv: b64encode(iv), data: b64encode(data) };
}

export async function decryptEnvelope(wsKey: string, env: { iv: string; data: string }): Promise<unknown> {
  const key = await importKey(wsKey);
  const plain = await crypto.subtle.decrypt({ name: 'AES-GCM', iv: b64decode(env.iv) }, key, b64decode(env.data));
  return JSON.parse(new TextDecoder().decode(plain));
}

// --- the client ------------------------------------------------------------------------------------

export class SocketClient {
  private ws: WebSocket | null = null;
  private failures = 0;
  private stopped = false;
  private pingTimer: ReturnType<typeof setInterval> | undefined;
  private reconnectTimer: ReturnType<typeof setTimeout> | undefined;
  private readonly sendTimers = new Set<ReturnType<typeof setTimeout>>();
  private readonly opts: Required<Omit<SocketOptions, 'onStatus'>> & Pick<SocketOptions, 'onStatus'>;

  constructor(opts: SocketOptions) {
    this.opts = {
      maxFailures: SOCKET_MAX_FAILURES_DEFAULT,
      pingIntervalMs: SOCKET_PING_INTERVAL_MS,
      retryDelayMs: SOCKET_RETRY_DELAY_MS,
      maxSendRetries: 10,
      ...opts,
    };
  }

  start() {
    this.stopped = false;
    this.failures = 0;
    this.connect();
  }

  /** Closes for good (sign-out, type 3): no reconnect. */
  stop() {
    this.stopped = true;
    clearInterval(this.pingTimer);
    clearTimeout(this.reconnectTimer);
    this.sendTimers.forEach(clearTimeout);
    this.sendTimers.clear();
    const ws = this.ws;
    this.ws = null;
    if (ws && ws.readyState <= WebSocket.OPEN) ws.close(1000);
    this.opts.onStatus?.('stopped');
  }

  get isOpen(): boolean {
    return this.ws?.readyState === WebSocket.OPEN;
  }

  /** Sends a message (locale and token added); retried after 1 s while the socket is not open. */
  send(payload: Record<string, unknown>, attempt = 0) {
    if (this.stopped) return;
    if (!this.isOpen) {
      if (attempt >= this.opts.maxSendRetries) return;
      const t = setTimeout(() => {
        this.sendTimers.delete(t);
        this.send(payload, attempt + 1);
      }, this.opts.retryDelayMs);
      this.sendTimers.add(t);
      return;
    }
    void this.encode(payload).then((text) => {
      if (text && this.isOpen) this.ws!.send(text);
    });
  }

  private async encode(payload: Record<string, unknown>): Promise<string | null> {
    const s = this.opts.session();
    const full = { ...payload, locale: s.locale, token: s.token };
    if (s.token && s.wsKey && s.sessionId && cryptoAvailable()) {
      try {
        return JSON.stringify(await encryptEnvelope(s.wsKey, s.sessionId, full));
      } catch (e) {
        console.error('[dau:socket] encrypt failed', e);
        return null;
      }
    }
    return JSON.stringify(full);
  }

  private heartbeat = () => {
    const s = this.opts.session();
    if (s.token && s.wsKey && s.sessionId && cryptoAvailable()) this.send({ type: 1 });
    else if (this.isOpen) this.ws!.send(JSON.stringify({ type: 'ping' }));
  };

  private connect() {
    if (this.stopped) return;
    this.opts.onStatus?.('connecting');
    let ws: WebSocket;
    try {
      ws = new WebSocket(this.opts.url);
    } catch (e) {
      console.error('[dau:socket] cannot connect', e);
      this.scheduleReconnect();
      return;
    }
    this.ws = ws;
    ws.onopen = () => {
      this.failures = 0;
      this.opts.onStatus?.('open');
      this.heartbeat();
      clearInterval(this.pingTimer);
      this.pingTimer = setInterval(this.heartbeat, this.opts.pingIntervalMs);
    };
    ws.onmessage = (ev) => void this.receive(ev.data);
    ws.onclose = (ev) => {
      if (this.ws !== ws) return;
      this.ws = null;
      clearInterval(this.pingTimer);
      if (this.stopped) return;
      if (ev.code === SOCKET_CLOSE_NO_RECONNECT) {
        this.stopped = true;
        this.opts.onStatus?.('stopped');
        return;
      }
      this.opts.onStatus?.('closed');
      this.scheduleReconnect();
    };
  }

  private scheduleReconnect() {
    this.failures += 1;
    const { maxFailures } = this.opts;
    if (maxFailures > 0 && this.failures > maxFailures) {
      this.stopped = true;
      this.opts.onStatus?.('stopped');
      return;
    }
    const delay = Math.min(1000 * 2 ** (this.failures - 1), 30_000) * (0.75 + Math.random() * 0.5);
    clearTimeout(this.reconnectTimer);
    this.reconnectTimer = setTimeout(() => this.connect(), delay);
  }

  private async receive(raw: unknown) {
    if (typeof raw !== 'string') return;
    let parsed: unknown;
    try {
      parsed = JSON.parse(raw);
    } catch {
      return;
    }
    const env = parsed as { iv?: unknown; data?: unknown };
    if (typeof env?.iv === 'string' && typeof env?.data === 'string') {
      const key = this.opts.session().wsKey;
      if (!key || !cryptoAvailable()) return;
      try {
        parsed = await decryptEnvelope(key, { iv: env.iv, data: env.data });
      } catch (e) {
        console.error('[dau:socket] decrypt failed', e);
        return;
      }
    }
    const m = parsed as SocketMessage;
    if (!m || typeof m.type !== 'number') return;
    this.opts.onMessage(m);
  }
}
