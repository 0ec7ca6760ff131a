import { useEffect } from 'react';
import { App } from 'antd';

/**
 * antd's message / notification / modal APIs bound to the theme and locale of the app (App.useApp), made
 * reachable from code outside components (the socket, global error handlers). Components should keep
 * using `App.useApp()` directly.
 */
type AppApi = ReturnType<typeof App.useApp>;
let current: AppApi | null = null;

export function FeedbackBridge() {
  const api = App.useApp();
  useEffect(() => {
    current = api;
    return () => {
      if (current === api) current = null;
    };
  }, [api]);
  return null;
}

export function feedback(): AppApi | null {
  return current;
}
