/**
 * Telegram (issue 15): bindings of admins' and bettors' Telegram accounts (telegram_bot_binding), the
 * one-time binding code of the signed-in admin, the bot's settings (token write-only), notices to bound
 * admins (./service.ts), the bot (./bot.ts, on the leader) and the sandbox Bot API (./sandbox.ts).
 *
 * Scope: an admin's binding is visible to the admins whose subtree holds that admin; a bettor's binding
 * to the admins whose branch holds the bettor's agent. Unbinding outside that answers 403 OUT_OF_SCOPE.
 */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { and, eq, ilike, or, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import { LOG_TYPE } from '@dau/domain';
import { idParams, okAnswer, telegramBindCodeAnswer, telegramBindingFilters, telegramBindingRow, telegramConfigResource, telegramMeAnswer } from '@dau/contract';
import type { AppContext } from '../../platform/context.js';
import type { Executor } from '../../platform/db.js';
import { authOf, type AuthContext } from '../../platform/access.js';
import { writeAudit } from '../../platform/audit.js';
import { AppError, badRequest, notFound } from '../../platform/errors.js';
import { defineList, registerList, scopeCondition, scopeOf, type Scope, likeEscape } from '../../platform/listing.js';
import { agentInScope } from '../../platform/ownership.js';
import { registerResource } from '../../platform/resource.js';
import { admins } from '../../platform/schema.js';
import { bettors } from '../money/index.js';
import { followNotices } from '../notices/index.js';
import { telegramBindings, telegramConfig } from './schema.js';
import { botApi, defineTelegramJobs, newBindCode, queueNoticeDelivery } from './service.js';

export { TelegramBotRunner } from './bot.js';
export { runTelegram, configureSandboxBot, seedTelegram, SANDBOX_BOT_USERNAME } from './runtime.js';
export { startSandboxTelegram, DEFAULT_TELEGRAM_SANDBOX_PORT, type SandboxTelegram, type TelegramUser } from './sandbox.js';
export {
  newBindCode, redeemBindCode, setTelegramApiRoot, telegramApiRoot, telegramApiRootFromEnv, telegramConfigOf, deliverNotices, hashCode, BIND_CODE_MINUTES, TELEGRAM_NOTIFY_JOB,
} from './service.js';


const selectBindings = (ex: Executor) =>
  ex
    .select({
      b: telegramBindings,
      adminAccount: admins.account,
      adminName: admins.name,
      bettorPhone: bettors.phone,
      bettorName: bettors.name,
    })
    .from(telegramBindings)
    .leftJoin(admins, eq(admins.id, telegramBindings.adminId))
    .leftJoin(bettors, eq(bettors.id, telegramBindings.bettorId));

type BindingJoin = { b: typeof telegramBindings.$inferSelect; adminAccount: string | null; adminName: string | null; bettorPhone: string | null; bettorName: string | null };
const toBindingRow = (r: BindingJoin) => ({
  id: r.b.id, subject: r.b.subject, admin_id: r.b.adminId, bettor_id: r.b.bettorId,
  account: r.b.subject === 'admin' ? r.adminAccount : r.bettorPhone, name: r.b.subject === 'admin' ? r.adminName : r.bettorName,
  tg_user_id: r.b.tgUserId, chat_id: r.b.chatId, first_name: r.b.firstName, username: r.b.username, language_code: r.b.languageCode,
  bound_at: r.b.boundAt.toISOString(),
});

/**
 * The list's scope: an admin's binding when the admin is in my subtree (the scope's admin ids), a
 * bettor's binding when the bettor's agent is.
 */
function bindingScope(scope: Scope): SQL | undefined {
  if (scope.all) return undefined;
  return or(
    and(eq(telegramBindings.subject, 'admin'), scopeCondition(scope, telegramBindings.adminId)),
    and(eq(telegramBindings.subject, 'bettor'), scopeCondition(scope, bettors.agentId)),
  );
}

type Filters = z.infer<typeof telegramBindingFilters>;

export const TELEGRAM_BINDING_LIST = defineList({
  name: 'telegram_bot_binding',
  page: 'telegram_bot_binding',
  path: '/api/v1/telegram/bindings',
  filters: telegramBindingFilters,
  where: (q: Filters, scope: Scope) =>
    and(
      bindingScope(scope),
      q.id ? eq(telegramBindings.id, q.id) : undefined,
      q.subject ? eq(telegramBindings.subject, q.subject) : undefined,
      q.username ? ilike(telegramBindings.username, `%${likeEscape(q.username.replace(/^@/, ''))}%`) : undefined,
      q.account ? or(ilike(admins.account, `%${likeEscape(q.account)}%`), ilike(bettors.phone, `%${likeEscape(q.account)}%`)) : undefined,
    ),
  select: selectBindings,
  idColumn: telegramBindings.id,
  sortable: { id: telegramBindings.id, bound_at: telegramBindings.boundAt },
  defaultSort: '-id',
  toRow: toBindingRow,
  row: telegramBindingRow,
  summary: 'List the Telegram bindings of my branch (admins and bettors), filtered, sorted and paged',
  columns: [
    { key: 'id' }, { key: 'first_name' }, { key: 'username' }, { key: 'language_code' }, { key: 'subject' }, { key: 'account' }, { key: 'name' },
    { key: 'chat_id' }, { key: 'bound_at' },
  ],
});

/** A binding the caller may act on: 404 when missing, 403 outside the branch. */
async function ownedBinding(ex: Executor, auth: AuthContext, id: number) {
  const [row] = await selectBindings(ex).where(eq(telegramBindings.id, id));
  if (!row) throw notFound();
  const scope = await scopeOf(ex, auth);
  if (scope.all) return row;
  const agentId = row.b.subject === 'admin' ? row.b.adminId : (await ex.select({ agentId: bettors.agentId }).from(bettors).where(eq(bettors.id, row.b.bettorId ?? 0)))[0]?.agentId;
  if (agentId === null || agentId === undefined || !agentInScope(scope, agentId)) throw new AppError(403, 'OUT_OF_SCOPE');
  return row;
}

export function telegramRoutes(app: FastifyInstance, ctx: AppContext) {
  const { db } = ctx;
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['telegram'];
  defineTelegramJobs(ctx);
  const unfollow = followNotices((ex, events) => queueNoticeDelivery(ctx, ex, events));
  app.addHook('onClose', async () => unfollow());

  registerResource(app, db, {
    def: telegramConfigResource,
    table: telegramConfig,
    singletonId: 1,
    prepare: async (v, { req, ex }) => {
      if (typeof v.bot_token === 'string' && v.bot_token !== '' && !/^\d{5,12}:[A-Za-z0-9_-]{30,60}$/.test(v.bot_token)) {
        throw badRequest('PARAM_INVALID', [{ field: 'bot_token', message: 'a bot token from BotFather (123456789:AA…)' }]);
      }
    },
  });

  registerList(app, db, TELEGRAM_BINDING_LIST);

  r.delete(
    '/api/v1/telegram/bindings/:id',
    { config: { access: { page: 'telegram_bot_binding', button: 'delete' } }, schema: { tags, summary: 'Unbind a Telegram account (admin or bettor of my branch)', params: idParams, response: { 200: okAnswer } } },
    async (req) => {
      const row = await ownedBinding(db, authOf(req), req.params.id);
      await db.transaction(async (tx) => {
        await tx.delete(telegramBindings).where(eq(telegramBindings.id, row.b.id));
        await writeAudit(tx, req, { type: LOG_TYPE.ordinary, content: `Unbound Telegram @${row.b.username ?? row.b.tgUserId} from ${row.b.subject} #${row.b.adminId ?? row.b.bettorId}`, before: toBindingRow(row) });
      });
      return { ok: true };
    },
  );

  r.post(
    '/api/v1/telegram/bind-code',
    { config: { access: { page: 'telegram_bot_binding', button: 'bind' } }, schema: { tags, summary: 'A one-time code (10 minutes) binding my Telegram account: send /start <code> to the bot', response: { 200: telegramBindCodeAnswer } } },
    async (req) => {
      const auth = authOf(req);
      const { code, expiresAt } = await db.transaction(async (tx) => {
        const made = await newBindCode(tx, 'admin', auth.admin.id);
        await writeAudit(tx, req, { type: LOG_TYPE.ordinary, content: 'Asked for a Telegram binding code' });
        return made;
      });
      const client = await botApi(db);
      const username = client ? await client.username : null;
      return { code, deep_link: username ? `https://t.me/${username}?start=${code}` : null, bot_username: username, expires_at: expiresAt.toISOString() };
    },
  );

  r.get(
    '/api/v1/telegram/me',
    { config: { access: { page: 'telegram_bot_binding' } }, schema: { tags, summary: "My own Telegram binding and the bot's username", response: { 200: telegramMeAnswer } } },
    async (req) => {
      const auth = authOf(req);
      const [row] = await selectBindings(db).where(eq(telegramBindings.adminId, auth.admin.id));
      const client = await botApi(db);
      return { binding: row ? toBindingRow(row) : null, bot_username: client ? await client.username : null };
    },
  );
}

