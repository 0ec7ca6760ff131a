ALTER TABLE "jackpot_tickets" ADD COLUMN "held_paid" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "jackpot_tickets" ADD CONSTRAINT "jackpot_tickets_held_paid_within" CHECK ("jackpot_tickets"."held_paid" >= 0 and "jackpot_tickets"."held_paid" <= "jackpot_tickets"."withheld");--> statement-breakpoint
CREATE INDEX "jackpot_tickets_held" ON "jackpot_tickets" USING btree ("id") WHERE withheld > 0;--> statement-breakpoint
CREATE TABLE "jackpot_prize_payouts" (
	"id" serial PRIMARY KEY NOT NULL,
	"ticket_id" bigint NOT NULL,
	"bettor_id" integer NOT NULL,
	"agent_id" integer NOT NULL,
	"kind" smallint NOT NULL,
	"amount" bigint NOT NULL,
	"reference" text DEFAULT '' NOT NULL,
	"reason" text NOT NULL,
	"status" smallint DEFAULT 1 NOT NULL,
	"requested_by" integer NOT NULL,
	"requested_at" timestamp with time zone DEFAULT now() NOT NULL,
	"decided_by" integer,
	"decided_at" timestamp with time zone,
	"refuse_reason" text,
	"txn_id" text,
	CONSTRAINT "jackpot_prize_payouts_amount_positive" CHECK ("jackpot_prize_payouts"."amount" > 0)
);
--> statement-breakpoint
CREATE INDEX "jackpot_prize_payouts_ticket" ON "jackpot_prize_payouts" USING btree ("ticket_id","id");--> statement-breakpoint
CREATE INDEX "jackpot_prize_payouts_pending" ON "jackpot_prize_payouts" USING btree ("agent_id","id") WHERE status = 1;
