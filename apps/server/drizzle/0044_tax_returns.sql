-- Issue 30. Tax returns: the Gaming Board's tax rate per product as a schedule by effective month (changed
-- only through a second admin's approval), and each month's return as computed from the ledger: its header,
-- the lines per product (stakes, payouts, GGR, the rate in force, the gaming tax) and the withholding tax
-- per order or ticket and per bettor. The default rates are the TRA's published ones (sports betting and
-- internet casino 25 % of GGR, virtual games 10 %; the jackpot is taken as sports betting): to be confirmed
-- with the operator's licence.
CREATE TABLE "gaming_tax_rates" (
	"effective_month" text PRIMARY KEY NOT NULL,
	"sports_bps" integer NOT NULL,
	"jackpot_bps" integer NOT NULL,
	"casino_bps" integer NOT NULL,
	"racing_bps" integer NOT NULL,
	"requested_by" integer,
	"approved_by" integer,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "gaming_tax_rates_month" CHECK ("effective_month" ~ '^[0-9]{4}-(0[1-9]|1[0-2])$'),
	CONSTRAINT "gaming_tax_rates_bps" CHECK ("sports_bps" BETWEEN 0 AND 10000 AND "jackpot_bps" BETWEEN 0 AND 10000 AND "casino_bps" BETWEEN 0 AND 10000 AND "racing_bps" BETWEEN 0 AND 10000)
);--> statement-breakpoint
INSERT INTO "gaming_tax_rates" ("effective_month", "sports_bps", "jackpot_bps", "casino_bps", "racing_bps") VALUES ('2000-01', 2500, 2500, 2500, 1000);--> statement-breakpoint
CREATE TABLE "tax_returns" (
	"month" text PRIMARY KEY NOT NULL,
	"status" text NOT NULL,
	"run" integer DEFAULT 1 NOT NULL,
	"requested_by" integer,
	"requested_at" timestamp with time zone DEFAULT now() NOT NULL,
	"computed_at" timestamp with time zone,
	"final" boolean DEFAULT false NOT NULL,
	"wht_total" bigint DEFAULT 0 NOT NULL,
	"wht_attributed" bigint DEFAULT 0 NOT NULL,
	"unattributed" integer DEFAULT 0 NOT NULL,
	"orders" integer DEFAULT 0 NOT NULL,
	"bettors" integer DEFAULT 0 NOT NULL,
	"error" text
);--> statement-breakpoint
CREATE TABLE "tax_return_products" (
	"month" text NOT NULL,
	"product" smallint NOT NULL,
	"stakes" bigint NOT NULL,
	"payouts" bigint NOT NULL,
	"ggr" bigint NOT NULL,
	"rate_bps" integer NOT NULL,
	"rate_effective_month" text NOT NULL,
	"gaming_tax" bigint NOT NULL,
	"wht" bigint NOT NULL,
	CONSTRAINT "tax_return_products_month_product_pk" PRIMARY KEY("month","product")
);--> statement-breakpoint
CREATE TABLE "tax_return_orders" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"month" text NOT NULL,
	"product" smallint NOT NULL,
	"ref_id" bigint,
	"bettor_id" integer,
	"tax" bigint NOT NULL,
	"withheld" bigint NOT NULL,
	"reversed" bigint NOT NULL,
	"movements" integer NOT NULL,
	"last_at" timestamp with time zone NOT NULL
);--> statement-breakpoint
CREATE INDEX "tax_return_orders_month" ON "tax_return_orders" USING btree ("month","tax","id");--> statement-breakpoint
CREATE INDEX "tax_return_orders_bettor" ON "tax_return_orders" USING btree ("month","bettor_id");--> statement-breakpoint
CREATE TABLE "tax_return_bettors" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"month" text NOT NULL,
	"bettor_id" integer,
	"orders" integer NOT NULL,
	"tax" bigint NOT NULL,
	"withheld" bigint NOT NULL,
	"reversed" bigint NOT NULL
);--> statement-breakpoint
CREATE INDEX "tax_return_bettors_month" ON "tax_return_bettors" USING btree ("month","bettor_id");--> statement-breakpoint
CREATE INDEX "tax_return_bettors_tax" ON "tax_return_bettors" USING btree ("month","tax","id");
