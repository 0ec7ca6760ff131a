/**
 * The simulator's content (issue 16), plugged into `startSimulator`: a fresh install without banners gets
 * a few demo banners (real pictures, uploaded through the configured store like the console does) and
 * articles in the three languages; then the bettor site's visitors click a shown banner now and then
 * (`bannerClicked`), so the banner list's clicks move.
 */
import path from 'node:path';
import { count } from 'drizzle-orm';
import type { AppContext } from '../platform/context.js';
import { bannerClicked, banners } from '../modules/content/index.js';
import { imageTexts, imageTextTypes, rotations, rotationTypes } from '../modules/content/schema.js';
import { loadImageConfig, StoreCache, storeUpload } from '../modules/files/index.js';
import { gradientPng } from '../modules/files/png.js';
import type { Rng } from './rng.js';

let ready = false;

const DEMO_BANNERS = [
  { title: 'Welcome bonus', jumpUrl: '/promotions', colours: [[22, 119, 255], [114, 46, 209]] },
  { title: 'Jackpot of the week', jumpUrl: '/jackpot', colours: [[250, 140, 22], [245, 34, 45]] },
  { title: 'Live football', jumpUrl: '/sports/1', colours: [[19, 194, 194], [82, 196, 26]] },
] as const;

const DEMO_ARTICLES = [
  { language: 'en-US', title: 'How to deposit with mobile money', body: '<h2>Deposit</h2><p>Open the app, choose <b>Deposit</b>, pick your operator and confirm on your phone.</p>' },
  { language: 'sw-KE', title: 'Jinsi ya kuweka pesa kwa simu', body: '<h2>Weka pesa</h2><p>Fungua programu, chagua <b>Weka pesa</b>, chagua mtandao wako na uthibitishe kwenye simu yako.</p>' },
  { language: 'zh-CN', title: '如何使用手机钱包充值', body: '<h2>充值</h2><p>打开应用，选择<b>充值</b>，选择运营商并在手机上确认。</p>' },
] as const;

async function seedDemoContent(ctx: AppContext) {
  const [{ n }] = await ctx.db.select({ n: count() }).from(rotations);
  if (Number(n) > 0) return;
  const [group] = await ctx.db.select().from(rotationTypes).limit(1);
  const [kind] = await ctx.db.select().from(imageTextTypes).limit(1);
  if (!group || !kind) return;
  const stores = new StoreCache(path.join(ctx.dataDir, 'uploads'));
  try {
    const config = await loadImageConfig(ctx.db);
    for (const [i, b] of DEMO_BANNERS.entries()) {
      const picture = await storeUpload(ctx.db, stores, config, gradientPng(960, 360, b.colours[0], b.colours[1]), 'png', null);
      await ctx.db.insert(rotations).values({ typeId: group.id, picture: picture.url, title: b.title, jumpUrl: b.jumpUrl, sort: (DEMO_BANNERS.length - i) * 10 });
    }
  } finally {
    stores.close();
  }
  for (const a of DEMO_ARTICLES) await ctx.db.insert(imageTexts).values({ typeId: kind.id, ...a });
}

export async function simulateContent(ctx: AppContext, rng: Rng) {
  if (!ready) {
    await seedDemoContent(ctx);
    ready = true;
  }
  // About one tick in four: a visitor of the home page clicks one of its banners.
  if (rng.next() >= 0.25) return;
  const [group] = await ctx.db.select({ code: rotationTypes.code }).from(rotationTypes).limit(1);
  if (!group) return;
  const shown = await banners(ctx.db, group.code);
  if (shown.length) await bannerClicked(ctx.db, rng.pick(shown).id);
}
