/**
 * Abnormal bet alerts (spec §4 abnormal bet flag, §9 thresholds; bet_remind): an open order whose last
 * match started 120 minutes, 150 minutes, 5 hours or 24 hours ago and still has no result gets that
 * flag. When an order crosses a threshold, a live notice goes to the super admins and to the admins who
 * hold the bet_remind screen and whose subtree owns the order (so no one hears of another branch's
 * orders). One notice per admin and sweep, naming how many orders crossed which threshold.
 */
import { inArray, sql } from 'drizzle-orm';
import { ABNORMAL_BET_FLAG, ABNORMAL_BET_THRESHOLD_MINUTES, ORDER_STATUS, SPORT } from '@dau/domain';
import type { Bus, Db, Executor } from '../../platform/db.js';
import type { AppContext } from '../../platform/context.js';
import { admins } from '../../platform/schema.js';
import { createNotices, noticeRecipients, publishNotices, type NoticeEvent } from '../notices/index.js';

export const REMIND_EVERY_MS = 60_000;

const FLAGS = [ABNORMAL_BET_FLAG.no_result_24_hours, ABNORMAL_BET_FLAG.no_result_5_hours, ABNORMAL_BET_FLAG.no_result_150_minutes, ABNORMAL_BET_FLAG.no_result_120_minutes] as const;

/** The notice, in the three languages of the console (as every notice of the product): one line each. */
const THRESHOLD: Record<number, [string, string, string]> = {
  1: ['120 minutes', 'dakika 120', '120 分钟'],
  2: ['150 minutes', 'dakika 150', '150 分钟'],
  3: ['5 hours', 'saa 5', '5 小时'],
  4: ['24 hours', 'saa 24', '24 小时'],
};
export function abnormalNoticeText(perFlag: Record<number, number>): string {
  const parts = Object.entries(perFlag).map(([flag, n]) => ({ n, t: THRESHOLD[Number(flag)]! }));
  return [
    `Abnormal bets: ${parts.map(({ n, t }) => `${n} order(s) without a result ${t[0]} after match time`).join('; ')}. Check them under Betting & matches › Abnormal bet alerts.`,
    `Madau yenye hitilafu: ${parts.map(({ n, t }) => `oda ${n} bila matokeo ${t[1]} baada ya muda wa mechi`).join('; ')}. Zikague kwenye Ubashiri na mechi › Arifa za madau yenye hitilafu.`,
    `异常注单：${parts.map(({ n, t }) => `${n} 张注单在比赛时间后 ${t[2]} 仍无赛果`).join('；')}。请在 赛事投注 › 异常注单提醒 中查看。`,
  ].join('\n');
}

/**
 * The spec's thresholds count from the last match's kick-off as a football match lasts; a sport whose
 * match lasts longer gets that much more before its bets look abnormal (a basketball game is about
 * 2.5 hours from tip-off to the final buzzer, an hour more than football).
 */
export const SPORT_GRACE_MINUTES: Readonly<Record<number, number>> = { [SPORT.basketball]: 60 };
const sportGraceCases = () => Object.entries(SPORT_GRACE_MINUTES).map(([sport, mins]) => `WHEN ${Number(sport)} THEN ${Number(mins)}`).join(' ');

/** One sweep: raises the flags that are due; answers how many orders crossed each threshold. */
export async function sweepAbnormalBets(db: Db, bus: Bus, now: Date = new Date()): Promise<Record<number, number>> {
  // The flags and their notices commit together: a sweep cut short raises neither, and the next one does both.
  const { counts, events } = await db.transaction((tx) => raiseFlags(tx, now));
  await publishNotices(bus, events);
  return counts;
}

async function raiseFlags(db: Executor, now: Date): Promise<{ counts: Record<number, number>; events: NoticeEvent[] }> {
  const crossed: { id: number; agent_id: number; flag: number }[] = [];
  for (const flag of FLAGS) {
    const minutes = ABNORMAL_BET_THRESHOLD_MINUTES[flag];
    const rows = (await db.execute(sql`
      UPDATE orders SET abnormal_flag = ${flag}, updated_at = now()
      WHERE status = ${ORDER_STATUS.pending} AND abnormal_flag < ${flag}
        AND last_match_at <= ${now.toISOString()}::timestamptz - make_interval(mins => ${minutes})
        AND last_match_at <= ${now.toISOString()}::timestamptz - make_interval(mins => ${minutes} + (
          SELECT coalesce(max(CASE e.sport_id ${sql.raw(sportGraceCases())} ELSE 0 END), 0)
            FROM order_lines l JOIN feed_events e ON e.event_id = l.event_id
           WHERE l.order_id = orders.id AND e.start_time >= orders.last_match_at))
      RETURNING id, agent_id`)) as unknown as { rows: { id: number; agent_id: number }[] };
    for (const r of rows.rows) crossed.push({ id: Number(r.id), agent_id: Number(r.agent_id), flag });
  }
  const counts: Record<number, number> = {};
  for (const c of crossed) counts[c.flag] = (counts[c.flag] ?? 0) + 1;
  if (!crossed.length) return { counts, events: [] };

  // Who hears of it: super admins, and bet_remind holders whose subtree owns the order.
  const recipients = await noticeRecipients(db, 'bet_remind');
  const agentIds = [...new Set(crossed.map((c) => c.agent_id))];
  const agents = new Map(
    (await db.select({ id: admins.id, path: admins.path }).from(admins).where(inArray(admins.id, agentIds))).map((a) => [a.id, `${a.path}${a.id}/`]),
  );
  const perAdmin = new Map<number, Record<number, number>>();
  const add = (adminId: number, flag: number) => {
    const m = perAdmin.get(adminId) ?? {};
    m[flag] = (m[flag] ?? 0) + 1;
    perAdmin.set(adminId, m);
  };
  for (const c of crossed) {
    const chain = agents.get(c.agent_id) ?? '';
    for (const r of recipients) if (r.isSuper || chain.startsWith(`${r.path}${r.id}/`)) add(r.id, c.flag);
  }
  const events: NoticeEvent[] = [];
  for (const [adminId, m] of perAdmin) {
    events.push(...(await createNotices(db, [adminId], abnormalNoticeText(m))));
  }
  return { counts, events };
}

export const ABNORMAL_BETS_JOB = 'betting.abnormal-bets';

/** The sweep as a periodic job: once a minute among all server processes. */
export function defineRemindJob(ctx: AppContext) {
  ctx.jobs.every(ABNORMAL_BETS_JOB, REMIND_EVERY_MS / 1000, async () => void (await sweepAbnormalBets(ctx.db, ctx.bus)));
}
