import { lazy, Suspense, useEffect, useState } from 'react';
import { Button, Tooltip, Typography, theme } from 'antd';
import { SearchOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { useIsMobile } from '../../../kit/dialog';

/** The dialog is its own chunk, fetched the first time it opens. */
const SearchDialog = lazy(() => import('./SearchDialog'));

const isMac = typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform || navigator.userAgent);

/**
 * Search everywhere's place in the top bar (issue 29): a box that opens the search dialog, and Ctrl+K
 * (⌘K on a Mac) anywhere in the console. On a phone, an icon.
 */
export function SearchBox() {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const mobile = useIsMobile();
  const [open, setOpen] = useState(false);
  const [mounted, setMounted] = useState(false);
  const show = () => {
    setMounted(true);
    setOpen(true);
  };

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if ((e.ctrlKey || e.metaKey) && !e.altKey && !e.shiftKey && e.key.toLowerCase() === 'k') {
        e.preventDefault();
        setMounted(true);
        setOpen(true);
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);

  const shortcut = isMac ? '⌘K' : 'Ctrl K';
  return (
    <>
      {mobile ? (
        <Button type="text" icon={<SearchOutlined />} aria-label={t('search.open')} aria-keyshortcuts="Control+K Meta+K" onClick={show} data-testid="search-box" />
      ) : (
        <Tooltip title={`${t('search.open')} (${shortcut})`}>
          <Button
            onClick={show}
            // Named by what it shows (the placeholder and the shortcut): a label other than the visible text
            // fails WCAG 2.5.3 (label in name).
            aria-keyshortcuts="Control+K Meta+K"
            data-testid="search-box"
            icon={<SearchOutlined />}
            style={{ width: 260, justifyContent: 'flex-start', color: token.colorTextPlaceholder, flexShrink: 1, minWidth: 120 }}
          >
            <span style={{ flex: 1, textAlign: 'start', overflow: 'hidden', textOverflow: 'ellipsis' }}>{t('search.placeholder')}</span>
            <Typography.Text keyboard style={{ fontSize: 11, color: token.colorTextSecondary }}>
              {shortcut}
            </Typography.Text>
          </Button>
        </Tooltip>
      )}
      {mounted && (
        <Suspense fallback={null}>
          <SearchDialog open={open} onClose={() => setOpen(false)} />
        </Suspense>
      )}
    </>
  );
}
