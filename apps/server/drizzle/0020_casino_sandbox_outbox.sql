CREATE TABLE "casino_sandbox_outbox" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"provider_code" text NOT NULL,
	"round_ref" text NOT NULL,
	"seq" smallint NOT NULL,
	"call" text NOT NULL,
	"transaction_uuid" text,
	"body" text NOT NULL,
	"failure" text DEFAULT '' NOT NULL,
	"not_before" timestamp with time zone DEFAULT now() NOT NULL,
	"next_attempt_at" timestamp with time zone DEFAULT now() NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"drop_answers" smallint DEFAULT 0 NOT NULL,
	"duplicates" smallint DEFAULT 0 NOT NULL,
	"state" smallint DEFAULT 1 NOT NULL,
	"answer_status" text,
	"answer_balance" bigint,
	"answered_at" timestamp with time zone,
	"duplicate_status" text,
	"duplicate_balance" bigint,
	"last_error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "casino_sandbox_outbox_call" ON "casino_sandbox_outbox" USING btree ("provider_code","round_ref","seq");--> statement-breakpoint
CREATE INDEX "casino_sandbox_outbox_due" ON "casino_sandbox_outbox" USING btree ("next_attempt_at") WHERE "casino_sandbox_outbox"."state" = 1;