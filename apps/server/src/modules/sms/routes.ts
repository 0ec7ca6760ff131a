/**
 * SMS routes (issue 15): the no-send list (declared resource + import), the SMS settings (write-only
 * API key), preview and send, the history of sends with their recipients, and Africa's Talking's
 * callbacks (delivery reports, incoming messages), public but carrying our secret token.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { and, count, desc, eq, sql, type SQL } from 'drizzle-orm';
import { LOG_TYPE, normaliseTzPhone, parsePhoneList } from '@dau/domain';
import {
  pageAnswer, smsConfigAnswer, smsConfigBody, smsExclusionResource, smsImportAnswer, smsImportBody, smsPreviewAnswer, smsRecipientQuery,
  smsRecipientRow, smsSendBody, smsSendFilters, smsSendParams, smsSendRow, text,
} from '@dau/contract';
import type { AppContext } from '../../platform/context.js';
import { authOf } from '../../platform/access.js';
import { writeAudit } from '../../platform/audit.js';
import { AppError, badRequest, notFound } from '../../platform/errors.js';
import { registerResource } from '../../platform/resource.js';
import { scopeOf, withinDates } from '../../platform/listing.js';
import { subtreeCondition } from '../../platform/ownership.js';
import { pageQuery, pageOffset } from '../../platform/paging.js';
import { admins } from '../../platform/schema.js';
import { smsConfig, smsExclusions, smsRecipients, smsSends } from './schema.js';
import { applyDeliveryReport, applyIncomingMessage, callbackTokenOk, createSend, deliverSend, prepareSend, previewSend, SMS_DELIVER_JOB, SMS_PREPARE_JOB } from './service.js';

const tags = ['sms'];
const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** Sends an admin may see: their own and those of admins in their subtree (all for the super admin). */
function sendScope(req: FastifyRequest): SQL | undefined {
  const auth = authOf(req);
  if (auth.isSuper) return undefined;
  const own = subtreeCondition(auth);
  return sql`(${smsSends.senderAdminId} = ${auth.admin.id} or ${smsSends.senderAdminId} in (select ${admins.id} from ${admins} where ${own ?? sql`false`}))`;
}

const sendColumns = {
  row: smsSends, senderAccount: admins.account,
  queued: sql<number>`(select count(*)::int from ${smsRecipients} r where r.send_id = ${smsSends.id} and r.status in ('queued', 'sending'))`,
};
type SendJoin = { row: typeof smsSends.$inferSelect; senderAccount: string | null; queued: number };
const toSendRow = ({ row: s, senderAccount, queued }: SendJoin) => ({
  id: s.id, content: s.content, encoding: s.encoding, segments: s.segments, target_kind: s.targetKind, recipient_count: s.recipientCount,
  excluded_count: s.excludedCount, estimated_cost_cents: s.estimatedCostCents, sent_count: s.sentCount, delivered_count: s.deliveredCount,
  failed_count: s.failedCount, queued_count: Number(queued), written_count: s.writtenCount, status: s.status, sender_admin_id: s.senderAdminId, sender_account: senderAccount,
  create_time: s.createdAt.toISOString(), finish_time: iso(s.finishedAt),
});

/** The public base of the callbacks: DAU_PUBLIC_URL, else the request's own origin. */
const publicBase = (req: FastifyRequest) => (process.env.DAU_PUBLIC_URL || `${req.protocol}://${req.host}`).replace(/\/$/, '');

export function smsRoutes(app: FastifyInstance, ctx: AppContext) {
  const { db } = ctx;
  const r = app.withTypeProvider<ZodTypeProvider>();

  ctx.jobs.define<{ sendId: number }>(SMS_DELIVER_JOB, ({ sendId }) => deliverSend(ctx, sendId), { retryLimit: 20, retryDelaySeconds: 2 });
  ctx.jobs.define<{ sendId: number }>(SMS_PREPARE_JOB, ({ sendId }) => prepareSend(ctx, sendId), { retryLimit: 20, retryDelaySeconds: 2 });

  // ------------------------------------------------------------------------------------ no-send list
  // The list is the whole product's (a STOP holds for every branch): any holder of the page's buttons adds
  // to it, but only an admin who sees the whole book removes a number (the declaration's duty covers the
  // delete: 403 WHOLE_BOOK_ONLY), so a branch cannot lift another branch's bettor's opt-out.
  registerResource(app, db, {
    def: smsExclusionResource,
    table: smsExclusions,
    prepare: async (v, { mode, req, ex }) => {
      if (mode !== 'create') return;
      const phone = normaliseTzPhone(v.phone);
      if (!phone) throw badRequest('PHONE_INVALID', [{ field: 'phone' }]);
      const [same] = await ex.select({ id: smsExclusions.id }).from(smsExclusions).where(eq(smsExclusions.phone, phone));
      if (same) throw new AppError(409, 'SMS_EXCLUSION_EXISTS');
      v.phone = phone;
      v.source = 'manual';
      v.created_by = authOf(req).admin.id;
    },
  });

  r.post(
    '/api/v1/sms/exclusions/import',
    {
      config: { access: { page: 'no_send_sms', button: 'import' } },
      schema: { tags, summary: 'Add a pasted list or CSV column of numbers to the no-send list', body: smsImportBody, response: { 200: smsImportAnswer } },
    },
    async (req) => {
      const parsed = parsePhoneList(req.body.text);
      const adminId = authOf(req).admin.id;
      return db.transaction(async (tx) => {
        let added = 0;
        for (let i = 0; i < parsed.phones.length; i += 2000) {
          const rows = await tx
            .insert(smsExclusions)
            .values(parsed.phones.slice(i, i + 2000).map((phone) => ({ phone, source: 'import', createdBy: adminId })))
            .onConflictDoNothing()
            .returning({ id: smsExclusions.id });
          added += rows.length;
        }
        const answer = { added, already: parsed.phones.length - added, invalid: parsed.invalid.slice(0, 50), invalid_count: parsed.invalid.length };
        await writeAudit(tx, req, { type: LOG_TYPE.ordinary, content: `Imported ${added} numbers into no_send_sms`, after: { ...answer, invalid: undefined } });
        return answer;
      });
    },
  );

  // ------------------------------------------------------------------------------------- settings
  const configAnswer = (c: typeof smsConfig.$inferSelect, req: FastifyRequest) => ({
    username: c.username, api_key_set: c.apiKey !== '', sender_id: c.senderId, cost_per_segment_cents: c.costPerSegmentCents,
    rate_per_second: c.ratePerSecond, enabled: c.enabled,
    delivery_report_url: `${publicBase(req)}/api/public/sms/at/delivery?token=${c.callbackToken}`,
    incoming_url: `${publicBase(req)}/api/public/sms/at/incoming?token=${c.callbackToken}`,
    updated_at: c.updatedAt.toISOString(),
  });
  const loadConfig = async () => {
    const [c] = await db.select().from(smsConfig).where(eq(smsConfig.id, 1));
    if (!c) throw notFound();
    return c;
  };
  r.get(
    '/api/v1/sms/config',
    { config: { access: { page: 'sms_send', button: 'config' } }, schema: { tags, summary: 'Read the SMS settings (the API key is never answered)', response: { 200: smsConfigAnswer } } },
    async (req) => configAnswer(await loadConfig(), req),
  );
  r.put(
    '/api/v1/sms/config',
    {
      config: { access: { page: 'sms_send', button: 'config', duty: { ring: 'two', fields: ['username', 'api_key', 'sender_id'], setting: 'sms_config' } } },
      schema: { tags, summary: 'Change the SMS settings (an empty API key keeps the stored one)', body: smsConfigBody, response: { 200: smsConfigAnswer } },
    },
    async (req) => {
      const b = req.body;
      const updated = await db.transaction(async (tx) => {
        const [before] = await tx.select().from(smsConfig).where(eq(smsConfig.id, 1)).for('update');
        if (!before) throw notFound();
        const [after] = await tx
          .update(smsConfig)
          .set({
            ...(b.username !== undefined ? { username: b.username } : {}),
            ...(b.api_key ? { apiKey: b.api_key } : {}),
            ...(b.sender_id !== undefined ? { senderId: b.sender_id } : {}),
            ...(b.cost_per_segment_cents !== undefined ? { costPerSegmentCents: b.cost_per_segment_cents } : {}),
            ...(b.rate_per_second !== undefined ? { ratePerSecond: b.rate_per_second } : {}),
            ...(b.enabled !== undefined ? { enabled: b.enabled } : {}),
            updatedAt: new Date(),
          })
          .where(eq(smsConfig.id, 1))
          .returning();
        // Neither the API key nor the callback token goes into the audit row.
        const visible = (c: typeof before) => ({ username: c.username, sender_id: c.senderId, cost_per_segment_cents: c.costPerSegmentCents, rate_per_second: c.ratePerSecond, enabled: c.enabled });
        await writeAudit(tx, req, { type: LOG_TYPE.ordinary, content: `Edited sms_config${b.api_key ? ' (API key replaced)' : ''}`, before: visible(before), after: visible(after) });
        return after;
      });
      return configAnswer(updated, req);
    },
  );

  // ------------------------------------------------------------------------------- preview and send
  r.post(
    '/api/v1/sms/preview',
    {
      config: { access: { page: 'sms_send', button: 'send' } },
      schema: { tags, summary: 'Preview a send: recipients after exclusions and scope, encoding, parts and estimated cost', body: smsSendBody, response: { 200: smsPreviewAnswer } },
    },
    async (req) => {
      req.audited = true; // reads only
      const scope = await scopeOf(db, authOf(req));
      return (await previewSend(db, scope, req.body.content, req.body.target)).answer;
    },
  );

  r.post(
    '/api/v1/sms/sends',
    {
      config: { access: { page: 'sms_send', button: 'send' } },
      schema: { tags, summary: 'Send an SMS to a list, a filter of bettors or one number (a durable job delivers it)', body: smsSendBody, response: { 201: smsSendRow } },
    },
    async (req, reply) => {
      const auth = authOf(req);
      const id = await db.transaction(async (tx) => {
        const scope = await scopeOf(tx, auth);
        const { id, preview } = await createSend(ctx, tx, { adminId: auth.admin.id, scope, content: req.body.content, target: req.body.target, expectedCostCents: req.body.expected_cost_cents });
        await writeAudit(tx, req, { type: LOG_TYPE.ordinary, content: `Sent SMS #${id} (${preview.recipient_count} recipients)`, after: { id, target: req.body.target.kind, ...preview, invalid: undefined } });
        return id;
      });
      return reply.status(201).send(await loadSend(id, req));
    },
  );

  const loadSend = async (id: number, req: FastifyRequest) => {
    const [row] = await db.select(sendColumns).from(smsSends).leftJoin(admins, eq(admins.id, smsSends.senderAdminId)).where(and(eq(smsSends.id, id), sendScope(req)));
    if (!row) throw notFound();
    return toSendRow(row as SendJoin);
  };

  r.get(
    '/api/v1/sms/sends',
    {
      config: { access: { page: 'sms_send' } },
      schema: { tags, summary: 'List SMS sends of my branch, newest first', querystring: pageQuery.merge(smsSendFilters), response: { 200: pageAnswer(smsSendRow) } },
    },
    async (req) => {
      const q = req.query;
      const where = and(
        sendScope(req),
        q.status ? eq(smsSends.status, q.status) : undefined,
        withinDates(smsSends.createdAt, q.created_at_from, q.created_at_to),
      );
      const [rows, [{ n }]] = await Promise.all([
        db.select(sendColumns).from(smsSends).leftJoin(admins, eq(admins.id, smsSends.senderAdminId)).where(where).orderBy(desc(smsSends.id)).limit(q.page_size).offset(pageOffset(q)),
        db.select({ n: count() }).from(smsSends).where(where),
      ]);
      return { items: (rows as SendJoin[]).map(toSendRow), total: Number(n), page: q.page, page_size: q.page_size };
    },
  );

  r.get(
    '/api/v1/sms/sends/:id',
    { config: { access: { page: 'sms_send' } }, schema: { tags, summary: 'One SMS send with its progress', params: smsSendParams, response: { 200: smsSendRow } } },
    async (req) => loadSend(req.params.id, req),
  );

  r.get(
    '/api/v1/sms/sends/:id/recipients',
    {
      config: { access: { page: 'sms_send' } },
      schema: { tags, summary: "A send's recipients: delivery state, failure reason, SMS status", params: smsSendParams, querystring: smsRecipientQuery, response: { 200: pageAnswer(smsRecipientRow) } },
    },
    async (req) => {
      await loadSend(req.params.id, req); // scope and ownership of the send
      const q = req.query;
      const phone = q.phone ? (normaliseTzPhone(q.phone) ?? q.phone) : undefined;
      const where = and(eq(smsRecipients.sendId, req.params.id), q.status ? eq(smsRecipients.status, q.status) : undefined, phone ? eq(smsRecipients.phone, phone) : undefined);
      const [rows, [{ n }]] = await Promise.all([
        db.select().from(smsRecipients).where(where).orderBy(smsRecipients.id).limit(q.page_size).offset(pageOffset(q)),
        db.select({ n: count() }).from(smsRecipients).where(where),
      ]);
      return {
        items: rows.map((x) => ({
          id: x.id, phone: x.phone, bettor_id: x.bettorId, status: x.status, provider_message_id: x.providerMessageId, failure_reason: x.failureReason,
          sms_status: x.smsStatus, cost: x.cost, attempts: x.attempts, update_time: x.updatedAt.toISOString(),
        })),
        total: Number(n), page: q.page, page_size: q.page_size,
      };
    },
  );

  // ------------------------------------------------------------------------ Africa's Talking callbacks
  // Public (AT calls them), form-encoded as AT posts them; AT does not sign callbacks, so the URL we
  // register carries a secret token (sms_config.callback_token), compared in constant time. A missing or
  // wrong token answers 404 (the endpoint is not confirmed to strangers).
  app.register(async (cb) => {
    cb.removeAllContentTypeParsers();
    cb.addContentTypeParser('*', { parseAs: 'string', bodyLimit: 64 * 1024 }, (_req, body, done) => done(null, body));
    const rr = cb.withTypeProvider<ZodTypeProvider>();
    const formOf = (req: FastifyRequest): Record<string, string> => {
      const raw = typeof req.body === 'string' ? req.body : '';
      if (String(req.headers['content-type'] ?? '').includes('json')) {
        try {
          const v = JSON.parse(raw) as unknown;
          return v && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, String(x)])) : {};
        } catch {
          throw badRequest('PARAM_INVALID', [{ field: 'body' }]);
        }
      }
      return Object.fromEntries(new URLSearchParams(raw));
    };
    const field = (form: Record<string, string>, key: string, max = 200) => {
      const v = form[key];
      if (typeof v !== 'string' || v === '' || v.length > max || v.includes('\0')) throw badRequest('PARAM_INVALID', [{ field: key }]);
      return v;
    };
    const tokenQuery = z.object({ token: text(200).optional() });
    const callbackAnswer = z.object({ ok: z.boolean(), matched: z.boolean() });

    rr.post(
      '/api/public/sms/at/delivery',
      { config: { access: { public: true } }, schema: { tags, summary: "Africa's Talking delivery report (form fields id, status, phoneNumber, failureReason…)", querystring: tokenQuery, response: { 200: callbackAnswer } } },
      async (req) => {
        req.audited = true;
        if (!(await callbackTokenOk(db, req.query.token))) throw new AppError(404, 'SMS_CALLBACK_REFUSED');
        const form = formOf(req);
        const report = {
          id: field(form, 'id'), status: field(form, 'status', 40), phoneNumber: field(form, 'phoneNumber', 32),
          networkCode: form.networkCode, failureReason: form.failureReason?.slice(0, 100), retryCount: form.retryCount,
        };
        const { matched } = await applyDeliveryReport(db, report);
        return { ok: true, matched };
      },
    );

    rr.post(
      '/api/public/sms/at/incoming',
      { config: { access: { public: true } }, schema: { tags, summary: "Africa's Talking incoming message (a STOP reply adds the number to the no-send list)", querystring: tokenQuery, response: { 200: callbackAnswer } } },
      async (req) => {
        req.audited = true;
        if (!(await callbackTokenOk(db, req.query.token))) throw new AppError(404, 'SMS_CALLBACK_REFUSED');
        const form = formOf(req);
        const { stopped } = await applyIncomingMessage(db, { from: field(form, 'from', 32), text: (form.text ?? '').slice(0, 1000) });
        return { ok: true, matched: stopped };
      },
    );
  });
}
