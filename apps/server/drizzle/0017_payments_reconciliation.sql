CREATE TABLE "sandbox_operator_txns" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"pay_type" smallint NOT NULL,
	"kind" text NOT NULL,
	"reference" text NOT NULL,
	"carrier_ref" text NOT NULL,
	"phone" text NOT NULL,
	"amount" bigint NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"reason" text,
	"planned_status" text NOT NULL,
	"planned_reason" text,
	"callbacks" smallint DEFAULT 1 NOT NULL,
	"due_at" bigint NOT NULL,
	"events" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"completed_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "recharges" ADD COLUMN "reconcile_since" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "recharges" ADD COLUMN "reconcile_cause" text;--> statement-breakpoint
ALTER TABLE "recharges" ADD COLUMN "reconciled_by" integer;--> statement-breakpoint
ALTER TABLE "recharges" ADD COLUMN "reconciled_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "recharges" ADD COLUMN "reconcile_reference" text;--> statement-breakpoint
ALTER TABLE "recharges" ADD COLUMN "reconcile_remark" text;--> statement-breakpoint
ALTER TABLE "withdrawals" ADD COLUMN "reconcile_since" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "withdrawals" ADD COLUMN "reconcile_cause" text;--> statement-breakpoint
ALTER TABLE "withdrawals" ADD COLUMN "reconciled_by" integer;--> statement-breakpoint
ALTER TABLE "withdrawals" ADD COLUMN "reconciled_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "withdrawals" ADD COLUMN "reconcile_reference" text;--> statement-breakpoint
ALTER TABLE "withdrawals" ADD COLUMN "reconcile_remark" text;--> statement-breakpoint
CREATE UNIQUE INDEX "sandbox_operator_txns_reference" ON "sandbox_operator_txns" USING btree ("pay_type","reference");--> statement-breakpoint
CREATE UNIQUE INDEX "sandbox_operator_txns_carrier" ON "sandbox_operator_txns" USING btree ("pay_type","carrier_ref");