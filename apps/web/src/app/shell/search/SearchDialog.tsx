import { useEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { Alert, Button, Empty, Flex, Input, Modal, Spin, Typography, theme, type InputRef } from 'antd';
import { SearchOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { formatTsh } from '@dau/domain';
import { api } from '../../../kit/api';
import { useDialogWidth, useIsMobile } from '../../../kit/dialog';
import { formatDateTime, useLocale } from '../../../resources';
import { DEBOUNCE_MS, moved, optionId, routeOf, SEARCH_MAX, shown, type SearchAnswer, type SearchItem } from './model';

interface Props {
  open: boolean;
  onClose(): void;
}

/**
 * Search everywhere's dialog (issue 29): one box over bettors, orders, payments, jackpot tickets, TRON and
 * admins. Typing settles for a moment before the query goes; results come grouped by kind; ↑ ↓ move the
 * highlight, Enter (or a click) opens the result's page, Esc closes. Enter before the results of what was
 * typed have come opens the first of them when they do.
 */
export default function SearchDialog({ open, onClose }: Props) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const locale = useLocale();
  const { token } = theme.useToken();
  const width = useDialogWidth(640);
  const mobile = useIsMobile();
  const input = useRef<InputRef>(null);
  const [text, setText] = useState('');
  const [q, setQ] = useState('');
  const [active, setActive] = useState(0);
  const pendingEnter = useRef(false);
  const typed = text.trim();

  useEffect(() => {
    const timer = setTimeout(() => setQ(typed), DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [typed]);

  const query = useQuery({
    queryKey: ['search-everywhere', q],
    queryFn: () => api.get<SearchAnswer>('/search', { q }),
    enabled: open && q.length > 0,
    staleTime: 15_000,
    retry: false,
    placeholderData: (previous) => previous,
  });
  const answer = q && query.data?.q === q ? query.data : undefined;
  const { groups, items } = useMemo(() => shown(answer), [answer]);
  // Results of what is in the box now (not of an earlier text, nor still on the way).
  const settled = !!answer && q === typed && !query.isFetching;

  const go = (item: SearchItem) => {
    pendingEnter.current = false;
    onClose();
    navigate(routeOf(item));
  };

  useEffect(() => setActive(0), [answer]);
  useEffect(() => {
    if (settled && pendingEnter.current) {
      pendingEnter.current = false;
      if (items[0]) go(items[0]);
    }
    // `go` closes over the latest props; the trigger is the answer settling.
  }, [settled, items]); // eslint-disable-line react-hooks/exhaustive-deps
  useEffect(() => {
    const item = items[active];
    if (item) document.getElementById(optionId(item))?.scrollIntoView({ block: 'nearest' });
  }, [active, items]);

  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      setActive((a) => moved(a, items.length, e.key === 'ArrowDown' ? 1 : -1));
    } else if (e.key === 'Enter') {
      e.preventDefault();
      if (settled && items[active]) go(items[active]);
      else if (typed) {
        pendingEnter.current = true;
        setQ(typed);
      }
    }
  };

  const status = !typed
    ? 'hint'
    : query.isError && q === typed
      ? 'error'
      : settled && !items.length
        ? 'empty'
        : !answer
          ? 'loading'
          : 'results';
  const activeItem = items[active];

  return (
    <Modal
      open={open}
      title={t('search.dialog')}
      width={width}
      style={{ top: mobile ? 16 : 80 }}
      footer={null}
      onCancel={onClose}
      afterOpenChange={(visible) => {
        if (visible) {
          input.current?.focus();
          input.current?.select();
        }
      }}
      data-testid="search-dialog"
    >
      <Input
        ref={input}
        size="large"
        allowClear
        autoFocus
        value={text}
        maxLength={SEARCH_MAX}
        onChange={(e) => setText(e.target.value)}
        onKeyDown={onKeyDown}
        prefix={<SearchOutlined aria-hidden />}
        suffix={query.isFetching ? <Spin size="small" /> : null}
        placeholder={t('search.input')}
        aria-label={t('search.input')}
        role="combobox"
        aria-expanded={items.length > 0}
        aria-controls="search-results"
        aria-activedescendant={activeItem ? optionId(activeItem) : undefined}
        aria-autocomplete="list"
        data-testid="search-input"
      />
      <div style={{ marginTop: 12, maxHeight: mobile ? '60vh' : 420, overflowY: 'auto' }} aria-live="polite" aria-busy={status === 'loading'}>
        {status === 'hint' && <Typography.Paragraph type="secondary">{t('search.hint')}</Typography.Paragraph>}
        {status === 'loading' && (
          <Flex justify="center" style={{ padding: 24 }} data-testid="search-loading">
            <Spin description={t('search.searching')}>
              <span style={{ display: 'inline-block', width: 48, height: 24 }} />
            </Spin>
          </Flex>
        )}
        {status === 'error' && (
          <Alert
            type="error"
            showIcon
            title={t('search.failed')}
            action={<Button size="small" onClick={() => void query.refetch()}>{t('search.retry')}</Button>}
            data-testid="search-error"
          />
        )}
        {status === 'empty' && <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('search.empty', { q: typed })} data-testid="search-empty" />}
        {status === 'results' && (
          <div id="search-results" role="listbox" aria-label={t('search.results', { count: items.length })} data-testid="search-results">
            {groups.map((g) => (
              <div key={g.kind} role="group" aria-label={t(`search.kind.${g.kind}`)} data-testid={`search-group-${g.kind}`}>
                <Typography.Text type="secondary" strong style={{ display: 'block', fontSize: 12, padding: '8px 8px 4px', textTransform: 'uppercase' }}>
                  {t(`search.kind.${g.kind}`)}
                </Typography.Text>
                {g.items.map((item) => {
                  const index = items.indexOf(item);
                  const selected = index === active;
                  return (
                    <div
                      key={item.id}
                      id={optionId(item)}
                      role="option"
                      aria-selected={selected}
                      data-testid={optionId(item)}
                      data-active={selected || undefined}
                      onMouseMove={() => index !== active && setActive(index)}
                      onClick={() => go(item)}
                      style={{
                        display: 'flex',
                        gap: 12,
                        alignItems: 'center',
                        padding: '6px 8px',
                        borderRadius: token.borderRadius,
                        cursor: 'pointer',
                        background: selected ? token.controlItemBgActive : undefined,
                      }}
                    >
                      <div style={{ flex: 1, minWidth: 0 }}>
                        <Typography.Text strong ellipsis style={{ display: 'block' }}>
                          {item.title}
                        </Typography.Text>
                        {item.subtitle && (
                          <Typography.Text type="secondary" ellipsis style={{ display: 'block', fontSize: 12 }}>
                            {item.subtitle}
                          </Typography.Text>
                        )}
                      </div>
                      {!mobile && (
                        <div style={{ textAlign: 'end', flexShrink: 0, fontSize: 12 }}>
                          {item.amount !== null && <div>{formatTsh(item.amount, locale)}</div>}
                          {item.time && <Typography.Text type="secondary" style={{ fontSize: 12 }}>{formatDateTime(item.time)}</Typography.Text>}
                        </div>
                      )}
                    </div>
                  );
                })}
              </div>
            ))}
          </div>
        )}
      </div>
      {!mobile && (
        <Typography.Text type="secondary" style={{ display: 'block', marginTop: 8, fontSize: 12 }}>
          {t('search.keys')}
        </Typography.Text>
      )}
    </Modal>
  );
}
