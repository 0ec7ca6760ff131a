import { describe, expect, it } from 'vitest';
import enCommon from '../src/locales/en-US/common';
import swCommon from '../src/locales/sw-KE/common';
import zhCommon from '../src/locales/zh-CN/common';
import enMenu from '../src/locales/en-US/menu';
import swMenu from '../src/locales/sw-KE/menu';
import zhMenu from '../src/locales/zh-CN/menu';
import enSystem from '../src/locales/en-US/system';
import swSystem from '../src/locales/sw-KE/system';
import zhSystem from '../src/locales/zh-CN/system';
import enMoney from '../src/locales/en-US/money';
import swMoney from '../src/locales/sw-KE/money';
import zhMoney from '../src/locales/zh-CN/money';
import enSports from '../src/locales/en-US/sports';
import swSports from '../src/locales/sw-KE/sports';
import zhSports from '../src/locales/zh-CN/sports';
import enStatistics from '../src/locales/en-US/statistics';
import swStatistics from '../src/locales/sw-KE/statistics';
import zhStatistics from '../src/locales/zh-CN/statistics';
import enBetting from '../src/locales/en-US/betting';
import swBetting from '../src/locales/sw-KE/betting';
import zhBetting from '../src/locales/zh-CN/betting';
import enJackpot from '../src/locales/en-US/jackpot';
import swJackpot from '../src/locales/sw-KE/jackpot';
import zhJackpot from '../src/locales/zh-CN/jackpot';
import enCasino from '../src/locales/en-US/casino';
import swCasino from '../src/locales/sw-KE/casino';
import zhCasino from '../src/locales/zh-CN/casino';
import { tronSweepResource, tronWalletResource, usdtTransferResource } from '@dau/contract';
import enTron from '../src/locales/en-US/tron';
import swTron from '../src/locales/sw-KE/tron';
import zhTron from '../src/locales/zh-CN/tron';
import enOperations from '../src/locales/en-US/operations';
import swOperations from '../src/locales/sw-KE/operations';
import zhOperations from '../src/locales/zh-CN/operations';
import enContent from '../src/locales/en-US/content';
import swContent from '../src/locales/sw-KE/content';
import zhContent from '../src/locales/zh-CN/content';
import enShop from '../src/locales/en-US/shop';
import swShop from '../src/locales/sw-KE/shop';
import zhShop from '../src/locales/zh-CN/shop';
import enVisitors from '../src/locales/en-US/visitors';
import swVisitors from '../src/locales/sw-KE/visitors';
import zhVisitors from '../src/locales/zh-CN/visitors';
import enMessaging from '../src/locales/en-US/messaging';
import swMessaging from '../src/locales/sw-KE/messaging';
import zhMessaging from '../src/locales/zh-CN/messaging';
import enSms from '../src/locales/en-US/sms';
import swSms from '../src/locales/sw-KE/sms';
import zhSms from '../src/locales/zh-CN/sms';
import enPush from '../src/locales/en-US/push';
import swPush from '../src/locales/sw-KE/push';
import zhPush from '../src/locales/zh-CN/push';
import enPromotions from '../src/locales/en-US/promotions';
import swPromotions from '../src/locales/sw-KE/promotions';
import zhPromotions from '../src/locales/zh-CN/promotions';
import enRacing from '../src/locales/en-US/racing';
import swRacing from '../src/locales/sw-KE/racing';
import zhRacing from '../src/locales/zh-CN/racing';
import { BETTING_RESOURCES, CASINO_ROUND_FIELDS, CASINO_TRANSACTION_FIELDS, casinoCategoryResource, casinoGameResource, casinoProviderResource, casinoRoundResource, casinoSettingsResource, JACKPOT_RESOURCES, flattenCatalogue, MONEY_RESOURCES, SPORTS_RESOURCES, SYSTEM_RESOURCES, fieldLabelKey, payConfigResource, RACING_RESOURCES } from '@dau/contract';

type Tree = { [k: string]: string | Tree };

function leaves(t: Tree, prefix = ''): Map<string, string> {
  const out = new Map<string, string>();
  for (const [k, v] of Object.entries(t)) {
    const key = prefix ? `${prefix}.${k}` : k;
    if (typeof v === 'string') out.set(key, v);
    else for (const [kk, vv] of leaves(v, key)) out.set(kk, vv);
  }
  return out;
}

const FILES = {
  common: { en: enCommon, sw: swCommon, zh: zhCommon },
  menu: { en: enMenu, sw: swMenu, zh: zhMenu },
  system: { en: enSystem, sw: swSystem, zh: zhSystem },
  money: { en: enMoney, sw: swMoney, zh: zhMoney },
  sports: { en: enSports, sw: swSports, zh: zhSports },
  statistics: { en: enStatistics, sw: swStatistics, zh: zhStatistics },
  betting: { en: enBetting, sw: swBetting, zh: zhBetting },
  jackpot: { en: enJackpot, sw: swJackpot, zh: zhJackpot },
  casino: { en: enCasino, sw: swCasino, zh: zhCasino },
  tron: { en: enTron, sw: swTron, zh: zhTron },
  operations: { en: enOperations, sw: swOperations, zh: zhOperations },
  content: { en: enContent, sw: swContent, zh: zhContent },
  shop: { en: enShop, sw: swShop, zh: zhShop },
  visitors: { en: enVisitors, sw: swVisitors, zh: zhVisitors },
  messaging: { en: enMessaging, sw: swMessaging, zh: zhMessaging },
  sms: { en: enSms, sw: swSms, zh: zhSms },
  push: { en: enPush, sw: swPush, zh: zhPush },
  promotions: { en: enPromotions, sw: swPromotions, zh: zhPromotions },
  racing: { en: enRacing, sw: swRacing, zh: zhRacing },
} as unknown as Record<string, Record<'en' | 'sw' | 'zh', Tree>>;

const interpolations = (s: string) => [...s.matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((m) => m[1]).sort();

describe('console locales', () => {
  for (const [file, langs] of Object.entries(FILES)) {
    const en = leaves(langs.en);
    for (const lang of ['sw', 'zh'] as const) {
      it(`${file}: ${lang} has every key of en-US, no extra key, the same placeholders, and is translated`, () => {
        const other = leaves(langs[lang]);
        expect([...en.keys()].filter((k) => !other.has(k)), 'missing').toEqual([]);
        expect([...other.keys()].filter((k) => !en.has(k)), 'extra').toEqual([]);
        for (const [k, v] of en) {
          expect(other.get(k)!.trim(), `${lang} ${k} is empty`).not.toBe('');
          expect(interpolations(other.get(k)!), `${lang} ${k} placeholders`).toEqual(interpolations(v));
        }
        const same = [...en].filter(([k, v]) => other.get(k) === v && /[a-z]{4,}/i.test(v));
        // Brand names and codes may stay as they are; real text may not.
        expect(same.length / en.size).toBeLessThan(0.1);
      });
    }
  }

  it('no two files claim the same top-level key', () => {
    const seen = new Map<string, string>();
    for (const [file, langs] of Object.entries(FILES)) {
      for (const top of Object.keys(langs.en)) {
        expect(seen.get(top), `${top} in ${file} and ${seen.get(top)}`).toBeUndefined();
        seen.set(top, file);
      }
    }
  });

  it('every catalogue entry and every resource field has a label', () => {
    const all = new Map<string, string>();
    for (const langs of Object.values(FILES)) for (const [k, v] of leaves(langs.en)) all.set(k, v);
    const missing = flattenCatalogue().map((e) => e.languageVariable).filter((k) => !all.has(k));
    expect(missing).toEqual([]);
    const fields = [...SYSTEM_RESOURCES, ...MONEY_RESOURCES, ...SPORTS_RESOURCES, ...BETTING_RESOURCES, payConfigResource].flatMap((r) => r.fields.map(fieldLabelKey)).filter((k) => !all.has(k));
    expect(fields).toEqual([]);
    // Titles and descriptions the declarations name.
    const texts = MONEY_RESOURCES.flatMap((r) => [r.title, r.description]).filter((k): k is string => !!k && !all.has(k));
    expect(texts).toEqual([]);
    // The catalogue screens use the default keys `resource.<name>.title` and `.description`.
    const sportsTexts = SPORTS_RESOURCES.flatMap((r) => [r.title ?? `resource.${r.name}.title`, r.description ?? `resource.${r.name}.description`]).filter((k) => !all.has(k));
    expect(sportsTexts).toEqual([]);
    // The jackpot screens label their fields `jackpot.field.<key>` and describe themselves in jackpot.describe (pages/jackpot/shared.tsx).
    const jackpotTexts = JACKPOT_RESOURCES.flatMap((r) => [...r.fields.map((f) => f.label ?? `jackpot.field.${f.key}`), `menu.${r.name}`, `jackpot.describe.${r.name}`]).filter((k) => !all.has(k));
    expect(jackpotTexts).toEqual([]);
    // The casino screens label their fields `casino.field.<key>` (pages/casino/shared.tsx casinoView); the lists take the menu's titles.
    const casinoFields = [casinoCategoryResource, casinoGameResource, casinoProviderResource, casinoSettingsResource, casinoRoundResource].flatMap((r) => r.fields);
    const casinoTexts = [...casinoFields, ...CASINO_ROUND_FIELDS, ...CASINO_TRANSACTION_FIELDS]
      .map((f) => `casino.field.${f.key}`)
      .concat([casinoCategoryResource, casinoGameResource, casinoRoundResource].flatMap((r) => [`menu.${r.name}`, `casino.describe.${r.name}`]))
      .filter((k) => !all.has(k));
    expect(casinoTexts).toEqual([]);
    // The TRON screens label their fields `tron.field.<key>` (pages/tron/shared.tsx tronView) and describe themselves in tron.describe.
    const tronTexts = [tronWalletResource, tronSweepResource, usdtTransferResource]
      .flatMap((r) => [...r.fields.map((f) => f.label ?? `tron.field.${f.key}`), `menu.${r.name}`, `tron.describe.${r.name}`])
      .filter((k) => !all.has(k));
    expect(tronTexts).toEqual([]);
    // The racing screens label their fields `racing.field.<key>` and take the menu's title and racing.describe of their page (pages/racing/shared.tsx racingView).
    const racingTexts = RACING_RESOURCES.flatMap((r) => [...r.fields.map((f) => f.label ?? `racing.field.${f.key}`), `menu.${r.page}`, `racing.describe.${r.page}`]).filter((k) => !all.has(k));
    expect(racingTexts).toEqual([]);
  });
});
