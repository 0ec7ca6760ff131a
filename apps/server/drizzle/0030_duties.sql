CREATE TABLE "pending_changes" (
	"id" serial PRIMARY KEY NOT NULL,
	"setting" text NOT NULL,
	"method" text NOT NULL,
	"url" text NOT NULL,
	"route" text NOT NULL,
	"page" text NOT NULL,
	"button" text,
	"body" jsonb,
	"diff" jsonb NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"requested_by" integer NOT NULL,
	"requested_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"decided_by" integer,
	"decided_at" timestamp with time zone,
	"reason" text,
	"nonce" text,
	"result_status" integer,
	"result_code" text
);
--> statement-breakpoint
CREATE TABLE "setting_history" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"setting" text NOT NULL,
	"method" text NOT NULL,
	"url" text NOT NULL,
	"admin_id" integer,
	"account" text,
	"approved_by" integer,
	"approved_account" text,
	"pending_change_id" integer,
	"before" jsonb,
	"after" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "pending_changes_status" ON "pending_changes" USING btree ("status","requested_at");--> statement-breakpoint
CREATE INDEX "pending_changes_setting" ON "pending_changes" USING btree ("setting","requested_at");--> statement-breakpoint
CREATE INDEX "setting_history_setting_created" ON "setting_history" USING btree ("setting","created_at");--> statement-breakpoint
CREATE INDEX "setting_history_created" ON "setting_history" USING btree ("created_at");