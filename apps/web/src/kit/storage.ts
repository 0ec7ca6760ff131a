/**
 * What the browser keeps (spec §9; docs/architecture.md): the session token, the account name
 * for "remember me", the language and the theme (1 light, 2 dark), the socket key of the session and the
 * menu layout ('side' | 'top'). Never the password. The shell keeps its tabs of open pages (their
 * addresses) under `tabs:<admin id>` itself (app/shell/tabs), so this file, which the sign-in page loads,
 * does not grow.
 */
export const STORAGE_KEYS = { token: 'token', account: 'account', language: 'language', theme: 'theme', wsKey: 'ws_key', sessionId: 'session_id', layout: 'layout' } as const;

export const storage = {
  get(key: keyof typeof STORAGE_KEYS): string | null {
    try {
      return localStorage.getItem(STORAGE_KEYS[key]);
    } catch {
      return null;
    }
  },
  set(key: keyof typeof STORAGE_KEYS, value: string | null) {
    try {
      if (value === null) localStorage.removeItem(STORAGE_KEYS[key]);
      else localStorage.setItem(STORAGE_KEYS[key], value);
    } catch {
      /* storage full or blocked: the session lives in memory only */
    }
  },
};
