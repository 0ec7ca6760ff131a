CREATE TABLE "bonus_grants" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"bettor_id" integer NOT NULL,
	"campaign_id" integer NOT NULL,
	"qualification_id" bigint NOT NULL,
	"amount" bigint NOT NULL,
	"remaining" bigint NOT NULL,
	"wagering_required" bigint DEFAULT 0 NOT NULL,
	"wagered" bigint DEFAULT 0 NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"status" text DEFAULT 'active' NOT NULL,
	"grant_bill_id" bigint,
	"expired_bill_id" bigint,
	"expired_amount" bigint DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "campaign_progress" (
	"campaign_id" integer NOT NULL,
	"bettor_id" integer NOT NULL,
	"period_key" text NOT NULL,
	"state" jsonb NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "campaign_progress_campaign_id_bettor_id_period_key_pk" PRIMARY KEY("campaign_id","bettor_id","period_key")
);
--> statement-breakpoint
CREATE TABLE "campaigns" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"type" text NOT NULL,
	"starts_at" timestamp with time zone NOT NULL,
	"ends_at" timestamp with time zone NOT NULL,
	"agent_id" integer,
	"rules" jsonb NOT NULL,
	"reward" jsonb NOT NULL,
	"budget_cents" bigint NOT NULL,
	"spent_cents" bigint DEFAULT 0 NOT NULL,
	"wagering_multiplier" integer DEFAULT 0 NOT NULL,
	"bonus_expiry_days" integer DEFAULT 30 NOT NULL,
	"auto_approve" boolean DEFAULT false NOT NULL,
	"status" text DEFAULT 'draft' NOT NULL,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "campaigns_budget_not_overspent" CHECK ("campaigns"."spent_cents" >= 0 and "campaigns"."spent_cents" <= "campaigns"."budget_cents")
);
--> statement-breakpoint
CREATE TABLE "promotion_events" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"bettor_id" integer,
	"data" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"processed_at" timestamp with time zone
);
--> statement-breakpoint
CREATE UNIQUE INDEX "bonus_grants_qualification" ON "bonus_grants" USING btree ("qualification_id");--> statement-breakpoint
CREATE INDEX "bonus_grants_bettor_active" ON "bonus_grants" USING btree ("bettor_id","expires_at") WHERE "bonus_grants"."status" = 'active';--> statement-breakpoint
CREATE INDEX "bonus_grants_expiry" ON "bonus_grants" USING btree ("expires_at") WHERE "bonus_grants"."status" = 'active';--> statement-breakpoint
CREATE INDEX "bonus_grants_campaign" ON "bonus_grants" USING btree ("campaign_id");--> statement-breakpoint
CREATE INDEX "campaigns_status" ON "campaigns" USING btree ("status","type");--> statement-breakpoint
CREATE INDEX "campaigns_agent" ON "campaigns" USING btree ("agent_id");--> statement-breakpoint
CREATE INDEX "promotion_events_unprocessed" ON "promotion_events" USING btree ("id") WHERE "promotion_events"."processed_at" is null;