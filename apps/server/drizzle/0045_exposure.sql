-- Issue 29, live exposure of the landing page (apps/server/src/modules/statistics/exposure.ts): one aggregate
-- over the undecided lines of the open orders. Both indexes are partial, so they hold only what is open
-- (a few per cent of the orders and lines) and the aggregate never reads the settled history: the open
-- orders with what the sum needs (an index-only scan), and the undecided lines by match, market and outcome.
CREATE INDEX IF NOT EXISTS "orders_open_exposure" ON "orders" USING btree ("id") INCLUDE ("agent_id","stake","potential_payout","leg_count") WHERE "status" = 2;--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "order_lines_open_selection" ON "order_lines" USING btree ("event_id","market_key","outcome_id") INCLUDE ("order_id") WHERE "outcome_status" = 1;
