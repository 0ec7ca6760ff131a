import { useEffect, useRef, useState, type CSSProperties, type DragEvent, type KeyboardEvent } from 'react';
import { Button, Dropdown, theme, type MenuProps } from 'antd';
import { CloseOutlined, EllipsisOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { isReopenShortcut, type Tab } from './model';
import type { OpenTabs } from './useOpenTabs';
import './tabs.css';

/** The shortcut as the menu shows it: the one every browser lets a page have. */
const REOPEN_KEYS = 'Alt+Shift+T';

interface Props {
  tabs: OpenTabs;
  label(page: string): string;
  compact: boolean;
}

/**
 * The bar of open pages, above the content, like a browser's: a click shows a tab, its × or a middle click
 * closes it, a right click (or the ⋯ button, for the active tab) offers close / close others / close to
 * the right / reopen closed; Ctrl+Shift+T, or Alt+Shift+T where the browser keeps Ctrl+Shift+T for its own
 * tabs, reopens the last closed; a tab is dragged to another place. From the keyboard: the arrows move
 * between tabs, Enter shows one, Delete closes it. On a phone it is a strip that scrolls sideways.
 */
export function TabsBar({ tabs, label, compact }: Props) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const { state } = tabs;
  const list = useRef<HTMLDivElement>(null);
  const [dragging, setDragging] = useState<string | null>(null);
  const single = state.tabs.length <= 1;
  const canReopen = state.closed.some((c) => !state.tabs.some((tab) => tab.page === c.page));

  // Ctrl+Shift+T (or Alt+Shift+T) anywhere in the console.
  const reopen = useRef(tabs.reopen);
  reopen.current = tabs.reopen;
  useEffect(() => {
    const onKey = (e: globalThis.KeyboardEvent) => {
      if (!isReopenShortcut(e)) return;
      e.preventDefault();
      reopen.current();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, []);

  // The active tab is kept in sight when the strip scrolls (sideways only: the window's scroll is the tab's).
  useEffect(() => {
    const strip = list.current;
    const shown = strip?.querySelector<HTMLElement>('.dau-tab[data-active]');
    if (!strip || !shown) return;
    const [a, b] = [shown.getBoundingClientRect(), strip.getBoundingClientRect()];
    if (a.left < b.left) strip.scrollLeft -= b.left - a.left + 8;
    else if (a.right > b.right) strip.scrollLeft += a.right - b.right + 8;
  }, [state.active, state.tabs.length]);

  const menuOf = (tab: Tab, index: number): MenuProps => ({
    items: [
      { key: 'close', disabled: single, label: <span data-testid="tab-menu-close">{t('tabs.close')}</span> },
      { key: 'closeOthers', disabled: single, label: <span data-testid="tab-menu-close-others">{t('tabs.closeOthers')}</span> },
      { key: 'closeRight', disabled: index >= state.tabs.length - 1, label: <span data-testid="tab-menu-close-right">{t('tabs.closeRight')}</span> },
      { type: 'divider' },
      { key: 'reopen', disabled: !canReopen, label: <span data-testid="tab-menu-reopen">{t('tabs.reopen')}</span>, extra: compact ? undefined : REOPEN_KEYS },
    ],
    onClick: ({ key, domEvent }) => {
      domEvent.stopPropagation();
      if (key === 'close') tabs.close(tab.page);
      if (key === 'closeOthers') tabs.closeOthers(tab.page);
      if (key === 'closeRight') tabs.closeRight(tab.page);
      if (key === 'reopen') tabs.reopen();
    },
  });
  const activeIndex = state.tabs.findIndex((tab) => tab.page === state.active);
  const activeTab = activeIndex >= 0 ? state.tabs[activeIndex] : null;

  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const items = [...(list.current?.querySelectorAll<HTMLElement>('[role="tab"]') ?? [])];
    const at = items.indexOf(document.activeElement as HTMLElement);
    if (at < 0) return;
    const page = items[at].dataset.page!;
    const focus = (i: number) => items[(i + items.length) % items.length]?.focus();
    if (e.key === 'ArrowRight') focus(at + 1);
    else if (e.key === 'ArrowLeft') focus(at - 1);
    else if (e.key === 'Home') focus(0);
    else if (e.key === 'End') focus(items.length - 1);
    else if (e.key === 'Enter' || e.key === ' ') tabs.activate(page);
    else if (e.key === 'Delete' && !single) {
      tabs.close(page);
      focus(at + 1 < items.length ? at + 1 : at - 1);
    } else return;
    e.preventDefault();
  };

  // Dragging: the tab takes the place of the one it is dragged over once past that tab's middle.
  const dragOver = (e: DragEvent<HTMLDivElement>, tab: Tab, index: number) => {
    if (!dragging) return;
    e.preventDefault();
    e.dataTransfer.dropEffect = 'move';
    if (dragging === tab.page) return;
    const from = state.tabs.findIndex((x) => x.page === dragging);
    const box = e.currentTarget.getBoundingClientRect();
    const middle = box.left + box.width / 2;
    if ((from < index && e.clientX > middle) || (from > index && e.clientX < middle)) tabs.move(dragging, index);
  };

  const vars = {
    '--dau-tabs-bg': token.colorBgLayout,
    '--dau-tabs-line': token.colorBorderSecondary,
    '--dau-tab-active-bg': token.colorBgContainer,
    '--dau-tab-ink': token.colorText,
    '--dau-tab-ink-2': token.colorTextSecondary,
    '--dau-tab-hover': token.colorFillTertiary,
    '--dau-tab-hover-strong': token.colorFillSecondary,
  } as CSSProperties;

  return (
    <div className="dau-tabs" data-compact={compact || undefined} style={vars} data-testid="tabs-bar">
      <div ref={list} className="dau-tabs-list" role="tablist" aria-label={t('tabs.bar')} onKeyDown={onKeyDown}>
        {state.tabs.map((tab, index) => {
          const active = tab.page === state.active;
          const name = label(tab.page);
          return (
            <Dropdown key={tab.page} trigger={['contextMenu']} menu={menuOf(tab, index)} destroyOnHidden>
              <div
                className="dau-tab"
                role="presentation"
                data-active={active || undefined}
                data-dragging={dragging === tab.page || undefined}
                data-testid={`tab-${tab.page}`}
                draggable={!compact}
                onDragStart={(e) => {
                  e.dataTransfer.effectAllowed = 'move';
                  e.dataTransfer.setData('text/plain', name);
                  setDragging(tab.page);
                }}
                onDragEnter={(e) => dragOver(e, tab, index)}
                onDragOver={(e) => dragOver(e, tab, index)}
                onDrop={(e) => e.preventDefault()}
                onDragEnd={() => setDragging(null)}
                onMouseDown={(e) => {
                  // No auto-scroll on a middle press: it closes the tab.
                  if (e.button === 1) e.preventDefault();
                }}
                onAuxClick={(e) => {
                  if (e.button !== 1 || single) return;
                  e.preventDefault();
                  tabs.close(tab.page);
                }}
                onClick={() => tabs.activate(tab.page)}
              >
                <div
                  role="tab"
                  className="dau-tab-label"
                  aria-selected={active}
                  tabIndex={active || (!activeTab && index === 0) ? 0 : -1}
                  data-page={tab.page}
                  title={name}
                >
                  {name}
                </div>
                {!single && (!compact || active) && (
                  // Out of the tab order and of the accessibility tree (a tab list holds tabs only): from
                  // the keyboard, Delete closes the tab and the context menu key opens its menu.
                  <button
                    type="button"
                    className="dau-tab-close"
                    tabIndex={-1}
                    aria-hidden
                    title={t('tabs.closeTab', { page: name })}
                    data-testid={`tab-close-${tab.page}`}
                    onClick={(e) => {
                      e.stopPropagation();
                      tabs.close(tab.page);
                    }}
                  >
                    <CloseOutlined />
                  </button>
                )}
              </div>
            </Dropdown>
          );
        })}
      </div>
      {activeTab && (
        <Dropdown trigger={['click']} placement="bottomRight" menu={menuOf(activeTab, activeIndex)} destroyOnHidden>
          <Button type="text" size="small" icon={<EllipsisOutlined />} aria-label={t('tabs.more')} data-testid="tabs-more" className="dau-tabs-more" />
        </Dropdown>
      )}
    </div>
  );
}
