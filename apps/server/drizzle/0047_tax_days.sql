-- Issue 30, a month's tax return at full scale: the return is assembled from days, each computed once after
-- it ended (tax_days, tax_day_products; the per-order rows carry their day). The stored returns of the
-- earlier shape (per-order rows of a whole month) are dropped: a month is computed again on asking, and its
-- figures are the same, since every movement is dated by its transaction.
DELETE FROM "tax_return_orders";--> statement-breakpoint
DELETE FROM "tax_return_bettors";--> statement-breakpoint
DELETE FROM "tax_return_products";--> statement-breakpoint
DELETE FROM "tax_returns";--> statement-breakpoint
ALTER TABLE "tax_return_orders" ADD COLUMN "day" text NOT NULL;--> statement-breakpoint
CREATE INDEX "tax_return_orders_day" ON "tax_return_orders" USING btree ("day");--> statement-breakpoint
CREATE TABLE "tax_days" (
	"day" text PRIMARY KEY NOT NULL,
	"month" text NOT NULL,
	"computed_at" timestamp with time zone NOT NULL,
	"final" boolean NOT NULL,
	"wht_total" bigint NOT NULL,
	"wht_attributed" bigint NOT NULL,
	"unattributed" integer NOT NULL
);--> statement-breakpoint
CREATE INDEX "tax_days_month" ON "tax_days" USING btree ("month","day");--> statement-breakpoint
CREATE TABLE "tax_day_products" (
	"day" text NOT NULL,
	"product" smallint NOT NULL,
	"stakes" bigint NOT NULL,
	"payouts" bigint NOT NULL,
	"wht" bigint NOT NULL,
	CONSTRAINT "tax_day_products_day_product_pk" PRIMARY KEY("day","product")
);
