CREATE TABLE "activity_qualifications" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"bettor_id" integer NOT NULL,
	"agent_id" integer NOT NULL,
	"activity" text NOT NULL,
	"status" smallint DEFAULT 1 NOT NULL,
	"reward" bigint DEFAULT 0 NOT NULL,
	"remark" text DEFAULT '' NOT NULL,
	"reviewed_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"qualified_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "request_keys" (
	"key" text PRIMARY KEY NOT NULL,
	"admin_id" integer NOT NULL,
	"route" text NOT NULL,
	"status" integer NOT NULL,
	"response" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "activity_qualifications_once" ON "activity_qualifications" USING btree ("bettor_id","activity");--> statement-breakpoint
CREATE INDEX "activity_qualifications_agent" ON "activity_qualifications" USING btree ("agent_id","created_at" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "activity_qualifications_created" ON "activity_qualifications" USING btree ("created_at" DESC NULLS FIRST);