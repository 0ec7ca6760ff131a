import type { ComponentType } from 'react';

/**
 * The route registry: which catalogue pages (packages/contract/src/menu.ts) the console has a screen for.
 * `/customer/:page` renders SCREENS[page] lazily when the admin may see the page; the menu shows only pages
 * that are both held by the admin and present here. Each entry is its own chunk.
 *
 * To add a screen: create the component (default export) and add `page_path: () => import('...')` below.
 */
export interface ScreenDef {
  path: string;
  load: () => Promise<{ default: ComponentType }>;
}

const resource = (page: string): ScreenDef['load'] => () =>
  import('../pages/system/resourceScreens').then((m) => {
    const screen = m.screens[page];
    if (!screen) throw new Error(`No resource screen for ${page}`);
    return { default: screen };
  });

export const SCREENS: Record<string, ScreenDef['load']> = {
  // System
  update_password: () => import('../pages/auth/UpdatePasswordPage'),
  administrators: () => import('../pages/system/AdministratorsPage'),
  role: () => import('../pages/system/RolePage'),
  ip_black: resource('ip_black'),
  language_list: resource('language_list'),
  log_type: resource('log_type'),
  log_config: resource('log_config'),
  configuration: resource('configuration'),
  subscriber_config_default: resource('subscriber_config_default'),
  log: resource('log'),
};

export function hasScreen(page: string): boolean {
  return Object.prototype.hasOwnProperty.call(SCREENS, page);
}
