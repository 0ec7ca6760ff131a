import { notifications } from '../system/schema.js';
import type { Bus, Executor } from '../../platform/db.js';

export const NOTICE_CREATED = 'notice.created';

export interface NoticeEvent {
  adminId: number;
  id: number;
  content: string;
}

/**
 * Stores notices for admins (spec §3 Notification). Returns the events to push; call `publishNotices`
 * after the transaction commits, so a console never receives a notice it cannot yet mark as viewed.
 */
export async function createNotices(ex: Executor, adminIds: number[], content: string, createdBy: number | null = null): Promise<NoticeEvent[]> {
  if (!adminIds.length) return [];
  const rows = await ex
    .insert(notifications)
    .values(adminIds.map((adminId) => ({ adminId, content, createdBy })))
    .returning({ id: notifications.id, adminId: notifications.adminId });
  return rows.map((r) => ({ adminId: r.adminId, id: r.id, content }));
}

export async function publishNotices(bus: Bus, events: NoticeEvent[]) {
  for (const e of events) await bus.publish(NOTICE_CREATED, e);
}
