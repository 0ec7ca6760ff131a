/**
 * The simulator's messaging activity (issue 15, MSG), plugged into `startSimulator`: now and then a bettor
 * writes on the message board (in English or Swahili), and bettors open their inbox and read a message,
 * through the same services a bettor app calls. The first run seeds a few app versions into an empty table.
 */
import { sql } from 'drizzle-orm';
import type { AppContext } from '../platform/context.js';
import { bettors } from '../modules/money/schema.js';
import { inbox, markMessageRead, postBoardMessage, seedDemoAppVersions } from '../modules/messaging/index.js';

interface Rng {
  next(): number;
  int(min: number, max: number): number;
  pick<T>(xs: readonly T[]): T;
}

const BOARD_TEXTS = [
  'My deposit has not arrived yet, please check.',
  'When will the jackpot results be out?',
  'I cannot withdraw to my M-Pesa number.',
  'Thank you, the payout was quick!',
  'Amana yangu bado haijaingia, tafadhali angalieni.',
  'Naomba msaada, siwezi kutoa pesa kwenda Tigo Pesa.',
  'Matokeo ya jackpot yatatoka lini?',
  'Asanteni, malipo yamefika haraka.',
];

let seeded = false;

export async function simulateMessaging(ctx: AppContext, rng: Rng) {
  if (!seeded) {
    await seedDemoAppVersions(ctx.db);
    seeded = true;
  }
  const [b] = await ctx.db.select({ id: bettors.id }).from(bettors).orderBy(sql`random()`).limit(1);
  if (!b) return;
  if (rng.next() < 0.35) {
    await postBoardMessage(ctx.db, b.id, rng.pick(BOARD_TEXTS));
    return;
  }
  const box = await inbox(ctx.db, b.id, 1, 10);
  const unread = box.items.filter((m) => !m.read);
  if (unread.length) await markMessageRead(ctx.db, b.id, rng.pick(unread).id);
}
