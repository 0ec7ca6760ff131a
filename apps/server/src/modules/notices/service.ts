import { notifications } from './schema.js';
import type { Bus, Executor } from '../../platform/db.js';
import { PUSH, type SocketChannel } from '../../platform/socket.js';

export const NOTICE_CREATED = 'notice.created';

export interface NoticeEvent {
  adminId: number;
  id: number;
  content: string;
}

/** A new notice reaches the sockets of its admin, in every process (app.ts registers it with the hub). */
export const noticeSocketChannel: SocketChannel = {
  channel: NOTICE_CREATED,
  deliver(hub, payload) {
    const e = payload as NoticeEvent;
    hub.toAdmin(e.adminId, { status: true, type: PUSH.notice, content: { id: e.id, content: e.content } });
  },
};

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
  const events = rows.map((r) => ({ adminId: r.adminId, id: r.id, content }));
  for (const follow of followers) await follow(ex, events);
  return events;
}

/** A module that follows new notices (Telegram queues its delivery job): called in the creating transaction. */
export type NoticeFollower = (ex: Executor, events: NoticeEvent[]) => Promise<void>;
const followers = new Set<NoticeFollower>();
/** Registers a follower; returns its removal (the app calls it when it closes). */
export function followNotices(follow: NoticeFollower): () => void {
  followers.add(follow);
  return () => followers.delete(follow);
}

export async function publishNotices(bus: Bus, events: NoticeEvent[]) {
  for (const e of events) await bus.publish(NOTICE_CREATED, e);
}
