import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { App } from 'antd';
import { SOCKET_PUSH_TYPE } from '@dau/domain';
import { isSpecCode, specMessage } from './spec-messages';
import { useAuth } from './auth';
import { usePrefs } from './prefs';
import { storage } from './storage';
import { asNotice, showNotice, showUnreadNotice } from './notices';
import { SocketClient, socketSupported, socketUrl, type SocketMessage, type SocketStatus } from './socket';

/**
 * The socket of the signed-in console (spec §4, §7). Push types: 1 ignored, 2 reload the page, 3 close
 * the connection (forced sign-out: the session is re-checked), 10 a notice; any other type goes to the
 * handlers of the current screen (`useSocketHandler`). Status false → error toast with the message (or
 * "Data abnormal"); a message without content → success toast.
 */
export const NOTICE_PUSH_TYPE = 10;

type Handler = (m: SocketMessage) => void;

interface LiveValue {
  status: SocketStatus;
  send(payload: Record<string, unknown>): void;
  subscribe(fn: Handler): () => void;
}

const LiveContext = createContext<LiveValue | null>(null);

export function LiveProvider({ children }: { children: ReactNode }) {
  const { refresh } = useAuth();
  const { language } = usePrefs();
  const { message, modal } = App.useApp();
  const [status, setStatus] = useState<SocketStatus>('connecting');
  const handlers = useRef(new Set<Handler>());
  const client = useRef<SocketClient | null>(null);
  const languageRef = useRef(language);
  languageRef.current = language;
  const deps = useRef({ refresh, message, modal });
  deps.current = { refresh, message, modal };

  useEffect(() => {
    void showUnreadNotice();
    if (!socketSupported()) {
      deps.current.modal.error({ content: specMessage('WS_UNSUPPORTED', languageRef.current) });
      setStatus('stopped');
      return;
    }
    const c = new SocketClient({
      url: socketUrl(),
      session: () => ({
        token: storage.get('token'),
        wsKey: storage.get('wsKey'),
        sessionId: storage.get('sessionId'),
        locale: languageRef.current,
      }),
      onStatus: setStatus,
      onMessage: (m) => dispatch(m),
    });
    const dispatch = (m: SocketMessage) => {
      const { message: toast, refresh: recheck } = deps.current;
      if (m.status === false) {
        const lng = languageRef.current;
        // The server may answer with a message code (e.g. UNAUTHORIZED): show its text in the operator's language.
        toast.error(m.message ? (isSpecCode(m.message) ? specMessage(m.message, lng) : m.message) : specMessage('DATA_ABNORMAL', lng));
        if (m.type !== SOCKET_PUSH_TYPE.close) return;
      }
      switch (m.type) {
        case SOCKET_PUSH_TYPE.ignore:
          return;
        case SOCKET_PUSH_TYPE.reload:
          window.location.reload();
          return;
        case SOCKET_PUSH_TYPE.close:
          c.stop();
          void recheck();
          return;
        case NOTICE_PUSH_TYPE: {
          const n = asNotice(m.content);
          if (n) showNotice(n);
          return;
        }
        default:
          if (m.content === undefined || m.content === null) {
            if (m.message) toast.success(m.message);
            else toast.success(specMessage('SUCCESS', languageRef.current));
          }
          handlers.current.forEach((fn) => fn(m));
      }
    };
    client.current = c;
    c.start();
    return () => {
      c.stop();
      client.current = null;
    };
  }, []);

  const send = useCallback((payload: Record<string, unknown>) => client.current?.send(payload), []);
  const subscribe = useCallback((fn: Handler) => {
    handlers.current.add(fn);
    return () => {
      handlers.current.delete(fn);
    };
  }, []);
  const value = useMemo<LiveValue>(() => ({ status, send, subscribe }), [status, send, subscribe]);
  return <LiveContext.Provider value={value}>{children}</LiveContext.Provider>;
}

function useLive(): LiveValue {
  const v = useContext(LiveContext);
  if (!v) throw new Error('socket hooks outside LiveProvider');
  return v;
}

/**
 * Receive the socket messages meant for the current screen (types other than 1, 2, 3 and 10):
 *   useSocketHandler((m) => { if (m.type === 20) refetch(); });
 * The latest `fn` is always used; it is unsubscribed when the screen unmounts.
 */
export function useSocketHandler(fn: Handler) {
  const { subscribe } = useLive();
  const ref = useRef(fn);
  ref.current = fn;
  useEffect(() => subscribe((m) => ref.current(m)), [subscribe]);
}

/** The connection status and a `send(payload)` (locale and token are added, encrypted). */
export function useSocket(): Pick<LiveValue, 'status' | 'send'> {
  const { status, send } = useLive();
  return { status, send };
}
