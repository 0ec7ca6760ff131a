import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import type { LoginAnswer, MeAnswer } from '@dau/contract';
import { api, onUnauthorized } from './api';
import { storage } from './storage';
import { setTimeZone } from './zone';

/**
 * The session (spec §4 "Session", §7): the token lives in storage. At load, when a token is stored, GET
 * /auth/me; a failure or an empty answer clears the user info and the token. Signing in stores the token,
 * the socket key and session id, and the account name when "remember me" is ticked (never the password).
 */
export type AuthState = { status: 'loading' } | { status: 'anonymous' } | { status: 'signed'; me: MeAnswer };

export interface AuthValue {
  state: AuthState;
  /** After POST /auth/login: keeps the session and loads the admin's menus. Throws when /auth/me fails. */
  signIn(answer: LoginAnswer, remember: { account: string } | null): Promise<MeAnswer>;
  /** POST /auth/logout (unless the server already ended the session), then forgets the session here. */
  signOut(opts?: { callServer?: boolean }): Promise<void>;
  /** Re-reads /auth/me (after binding Google, or when the server says the session may have ended). */
  refresh(): Promise<void>;
}

const AuthContext = createContext<AuthValue | null>(null);

function keepSession(a: { token: string; ws_key: string; session_id: string }) {
  storage.set('token', a.token);
  storage.set('wsKey', a.ws_key);
  storage.set('sessionId', a.session_id);
}

function forgetSession() {
  setTimeZone(null);
  storage.set('token', null);
  storage.set('wsKey', null);
  storage.set('sessionId', null);
}

/** The admin's own preferences: the time zone every screen shows times in (the default when unreadable). */
async function loadPreferences() {
  const prefs = await api.get<{ time_zone?: string }>('/auth/preferences').catch(() => null);
  setTimeZone(prefs?.time_zone);
}

async function fetchMe(): Promise<MeAnswer | null> {
  const me = await api.get<MeAnswer | null>('/auth/me');
  if (!(me && me.user_info && me.token)) return null;
  await loadPreferences();
  return me;
}

export function AuthProvider({ children }: { children: ReactNode }) {
  const queryClient = useQueryClient();
  const [state, setState] = useState<AuthState>(() => (storage.get('token') ? { status: 'loading' } : { status: 'anonymous' }));

  // While signing out the server closes the socket (type 3), which asks for a re-check: nothing to check.
  const signingOut = useRef(false);

  const load = useCallback(async () => {
    if (signingOut.current) return;
    if (!storage.get('token')) {
      setState({ status: 'anonymous' });
      return;
    }
    try {
      const me = await fetchMe();
      if (!me) throw new Error('empty');
      keepSession(me);
      setState({ status: 'signed', me });
    } catch {
      forgetSession();
      queryClient.clear();
      setState({ status: 'anonymous' });
    }
  }, [queryClient]);

  useEffect(() => {
    void load();
  }, [load]);

  useEffect(() => {
    const off = onUnauthorized(() => {
      forgetSession();
      queryClient.clear();
      setState({ status: 'anonymous' });
    });
    return () => {
      off();
    };
  }, [queryClient]);

  const signIn = useCallback(
    async (answer: LoginAnswer, remember: { account: string } | null) => {
      storage.set('account', remember ? remember.account : null);
      keepSession(answer);
      queryClient.clear();
      try {
        const me = await fetchMe();
        if (!me) throw new Error('empty');
        keepSession(me);
        setState({ status: 'signed', me });
        return me;
      } catch (e) {
        forgetSession();
        setState({ status: 'anonymous' });
        throw e;
      }
    },
    [queryClient],
  );

  const signOut = useCallback(
    async ({ callServer = true }: { callServer?: boolean } = {}) => {
      signingOut.current = true;
      try {
        if (callServer && storage.get('token')) {
          await api.post('/auth/logout').catch(() => undefined);
        }
        forgetSession();
        queryClient.clear();
        setState({ status: 'anonymous' });
      } finally {
        signingOut.current = false;
      }
    },
    [queryClient],
  );

  const value = useMemo(() => ({ state, signIn, signOut, refresh: load }), [state, signIn, signOut, load]);
  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}

export function useAuth(): AuthValue {
  const v = useContext(AuthContext);
  if (!v) throw new Error('useAuth outside AuthProvider');
  return v;
}

/** The signed-in admin (only inside the protected area). */
export function useMe(): MeAnswer {
  const { state } = useAuth();
  if (state.status !== 'signed') throw new Error('useMe outside the protected area');
  return state.me;
}
