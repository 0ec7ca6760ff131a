-- Issue 23. Bill remarks as a kind and its parameters, read in the reader's language (domain remarks.ts);
-- `remark` keeps an admin's free text. Nullable columns without a default: no rewrite of the bills.
ALTER TABLE "bills" ADD COLUMN "remark_kind" text;--> statement-breakpoint
ALTER TABLE "bills" ADD COLUMN "remark_params" jsonb;--> statement-breakpoint
-- Match statistics: the stakes of the settled (or cashed-out) orders holding each selection, so that GGR
-- counts settled stakes only and open stakes are shown apart. A constant default is not a rewrite either.
ALTER TABLE "selection_exposure" ADD COLUMN "settled_stake" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
-- Once, set-based: the selections of the orders already settled (4), early settled (6) or auto cashed out (8).
UPDATE "selection_exposure" x SET "settled_stake" = s.stake
FROM (
  SELECT l.event_id, l.market_key, l.outcome_id, o.agent_id, sum(o.stake)::bigint AS stake
  FROM "order_lines" l JOIN "orders" o ON o.id = l.order_id
  WHERE o.status IN (4, 6, 8)
  GROUP BY l.event_id, l.market_key, l.outcome_id, o.agent_id
) s
WHERE x.event_id = s.event_id AND x.market_key = s.market_key AND x.outcome_id = s.outcome_id AND x.agent_id = s.agent_id;
