-- Issue 30. The daily close: per business day (Africa/Dar_es_Salaam) and run, the figures computed from the
-- ledger (products, liability at close, open bets, payments per operator, the ledger check). A run is never
-- rewritten: a rerun that finds other figures is stored as the next run of the day, beside the earlier ones.
CREATE TABLE "daily_closes" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"day" date NOT NULL,
	"run" integer NOT NULL,
	"source" text NOT NULL,
	"created_by" integer,
	"digest" text NOT NULL,
	"stakes" bigint NOT NULL,
	"payouts" bigint NOT NULL,
	"ggr" bigint NOT NULL,
	"bonuses" bigint NOT NULL,
	"ngr" bigint NOT NULL,
	"tax" bigint NOT NULL,
	"deposits" bigint NOT NULL,
	"withdrawals" bigint NOT NULL,
	"liability_cash" bigint NOT NULL,
	"liability_credit" bigint NOT NULL,
	"open_orders" integer NOT NULL,
	"open_payout" bigint NOT NULL,
	"ledger_ok" boolean NOT NULL,
	"ledger_problems" integer NOT NULL,
	"figures" jsonb NOT NULL,
	"duration_ms" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);--> statement-breakpoint
CREATE UNIQUE INDEX "daily_closes_day_run" ON "daily_closes" USING btree ("day","run");
