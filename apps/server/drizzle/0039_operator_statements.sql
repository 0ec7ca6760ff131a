-- Issue 28. Operators' daily statements matched against our recharges and withdrawals: every import kept
-- (a version per pay type and day), and its findings (matched, ours only, theirs only, amount or status
-- mismatch) with the line as the file had it and the payment of ours it points to.
CREATE TABLE "operator_statements" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"provider" text NOT NULL,
	"pay_type" smallint NOT NULL,
	"day" date NOT NULL,
	"version" integer NOT NULL,
	"source" text NOT NULL,
	"file_name" text DEFAULT '' NOT NULL,
	"file_sha256" text NOT NULL,
	"lines" integer NOT NULL,
	"skipped" integer DEFAULT 0 NOT NULL,
	"their_collect" bigint DEFAULT 0 NOT NULL,
	"their_disburse" bigint DEFAULT 0 NOT NULL,
	"our_collect" bigint DEFAULT 0 NOT NULL,
	"our_disburse" bigint DEFAULT 0 NOT NULL,
	"result" text NOT NULL,
	"matched" integer DEFAULT 0 NOT NULL,
	"ours_only" integer DEFAULT 0 NOT NULL,
	"theirs_only" integer DEFAULT 0 NOT NULL,
	"amount_mismatch" integer DEFAULT 0 NOT NULL,
	"status_mismatch" integer DEFAULT 0 NOT NULL,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);--> statement-breakpoint
CREATE UNIQUE INDEX "operator_statements_version" ON "operator_statements" USING btree ("pay_type","day","version");--> statement-breakpoint
CREATE INDEX "operator_statements_day" ON "operator_statements" USING btree ("day" DESC NULLS LAST,"pay_type");--> statement-breakpoint
CREATE TABLE "operator_statement_items" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"statement_id" bigint NOT NULL,
	"kind" text NOT NULL,
	"direction" text NOT NULL,
	"line_no" integer,
	"operator_ref" text,
	"reference" text,
	"recharge_id" bigint,
	"withdrawal_id" bigint,
	"our_amount" bigint,
	"our_status" text,
	"their_amount" bigint,
	"their_status" text,
	"their_time" timestamp with time zone,
	"reconcile" boolean DEFAULT false NOT NULL,
	"their_line" jsonb
);--> statement-breakpoint
CREATE INDEX "operator_statement_items_statement" ON "operator_statement_items" USING btree ("statement_id","kind");--> statement-breakpoint
CREATE INDEX "operator_statement_items_recharge" ON "operator_statement_items" USING btree ("recharge_id") WHERE recharge_id is not null;--> statement-breakpoint
CREATE INDEX "operator_statement_items_withdrawal" ON "operator_statement_items" USING btree ("withdrawal_id") WHERE withdrawal_id is not null;
