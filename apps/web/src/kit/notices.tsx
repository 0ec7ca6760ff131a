import { Button } from 'antd';
import { CloseOutlined } from '@ant-design/icons';
import type { Notice } from '@dau/contract';
import { NOTICE_PAGE_SIZE, NOTIFY_STATUS } from '@dau/domain';
import i18n from '../locales';
import { api, type ListAnswer } from './api';
import { feedback } from './feedback';

/**
 * Notices to the operator (spec §7, §8): an unviewed notice is shown as a persistent, centred error toast
 * (it stays until closed), then marked viewed. Used at load, after sign-in, and for live notices (type 10).
 * One toast at a time, whatever the screen: a newer notice takes the place of the one on screen (the
 * Notices list keeps them all), and a notice once shown is never shown again.
 */
const shown = new Set<number>();

export function showNotice(n: { id: number; content: string }) {
  if (shown.has(n.id)) return;
  const fb = feedback();
  if (!fb) return;
  shown.add(n.id);
  const key = 'notice';
  fb.message.open({
    key,
    type: 'error',
    duration: 0,
    content: (
      <span data-testid="notice-toast" style={{ display: 'inline-flex', alignItems: 'center', gap: 8, whiteSpace: 'pre-wrap', textAlign: 'left' }}>
        <span>{n.content}</span>
        <Button
          type="text"
          size="small"
          icon={<CloseOutlined />}
          aria-label={i18n.t('notice.close')}
          title={i18n.t('notice.close')}
          data-testid="notice-close"
          onClick={() => fb.message.destroy(key)}
        />
      </span>
    ),
  });
  void api.post(`/notices/${n.id}/viewed`).catch((e) => console.error('[dau:notice] mark viewed failed', e));
}

/** GET the first unviewed notice (page size 1) and show it. */
export async function showUnreadNotice() {
  try {
    const page = await api.get<ListAnswer<Notice>>('/notices', { notify_status: NOTIFY_STATUS.unviewed, page: 1, page_size: NOTICE_PAGE_SIZE });
    const first = page?.items?.[0];
    if (first) showNotice(first);
  } catch (e) {
    console.error('[dau:notice] unread fetch failed', e);
  }
}

/** Reads a live notice's content ({ id, content }); anything else is ignored. */
export function asNotice(content: unknown): { id: number; content: string } | null {
  const c = content as { id?: unknown; content?: unknown } | null;
  if (c && typeof c.id === 'number' && typeof c.content === 'string') return { id: c.id, content: c.content };
  return null;
}
