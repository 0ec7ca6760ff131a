import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { eq } from 'drizzle-orm';
import { LOG_TYPE } from '@dau/domain';
import { tronSettingsAnswer, tronSettingsBody, type TronSettingsAnswer } from '@dau/contract';
import type { AppContext } from '../../platform/context.js';
import { writeAudit } from '../../platform/audit.js';
import { tronSettings } from './schema.js';
import { tronSettingsOf, type TronSettings } from './deposits.js';

/**
 * The TRON settings (issue 29; page tron_config): the confirmations the watcher waits for, the USDT→TSh
 * rate, the collect threshold and the hot wallet's ceiling. Whole book only; a change of the rate (what a
 * deposit credits and a withdrawal costs) or of the ceiling (how much stays online) waits for a second
 * whole-book admin (platform/duties.ts), and every change is kept in the settings history.
 *
 * The API speaks USDT as the operator reads it (a number with at most 6 decimals); the row keeps units
 * (1 USDT = 1,000,000), converted here from the decimal digits, never through a float product.
 */

const SCALE = 1_000_000;

/** 12.5 → 12_500_000 (the contract allows at most 6 decimals). */
export function usdtToUnits(v: number): number {
  const [whole, fraction = ''] = String(v).split('.');
  return Number(whole) * SCALE + Number(fraction.padEnd(6, '0'));
}

/** 12_500_000 → 12.5 (exact for the amounts the settings hold: below 2^53 units). */
export const unitsToUsdt = (units: number): number => Number(`${Math.trunc(units / SCALE)}.${String(units % SCALE).padStart(6, '0')}`);

export const tronSettingsView = (s: TronSettings): TronSettingsAnswer => ({
  confirmations: s.confirmations,
  usdt_rate_tsh: Number(s.usdtRateTsh),
  collect_threshold: unitsToUsdt(Number(s.collectThreshold)),
  hot_wallet_ceiling: unitsToUsdt(Number(s.hotWalletCeiling)),
  updated_at: s.updatedAt.toISOString(),
});

export function tronSettingsRoutes(app: FastifyInstance, { db }: AppContext) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get(
    '/api/v1/tron/settings',
    {
      config: { access: { page: 'tron_config' } },
      schema: { tags: ['tron_config'], summary: 'TRON settings: confirmations, the USDT→TSh rate, the collect threshold and the hot-wallet ceiling (USDT)', response: { 200: tronSettingsAnswer } },
    },
    async () => tronSettingsView(await tronSettingsOf(db)),
  );
  r.put(
    '/api/v1/tron/settings',
    {
      config: { access: { page: 'tron_config', button: 'edit', duty: { ring: 'two', fields: ['usdt_rate_tsh', 'hot_wallet_ceiling'], setting: 'tron_settings' } } },
      schema: {
        tags: ['tron_config'],
        summary: 'Change the TRON settings (whole book; the rate and the ceiling wait for a second admin; audited)',
        body: tronSettingsBody,
        response: { 200: tronSettingsAnswer },
      },
    },
    async (req) =>
      db.transaction(async (tx) => {
        const before = await tronSettingsOf(tx);
        const b = req.body;
        const [after] = await tx
          .update(tronSettings)
          .set({
            ...(b.confirmations !== undefined ? { confirmations: b.confirmations } : {}),
            ...(b.usdt_rate_tsh !== undefined ? { usdtRateTsh: b.usdt_rate_tsh } : {}),
            ...(b.collect_threshold !== undefined ? { collectThreshold: usdtToUnits(b.collect_threshold) } : {}),
            ...(b.hot_wallet_ceiling !== undefined ? { hotWalletCeiling: usdtToUnits(b.hot_wallet_ceiling) } : {}),
            updatedAt: new Date(),
          })
          .where(eq(tronSettings.id, 1))
          .returning();
        const view = tronSettingsView(after!);
        await writeAudit(tx, req, { type: LOG_TYPE.ordinary, content: 'TRON settings changed', before: tronSettingsView(before), after: view });
        return view;
      }),
  );
}
