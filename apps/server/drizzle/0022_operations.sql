CREATE TABLE "script_run_output" (
	"run_id" bigint NOT NULL,
	"seq" integer NOT NULL,
	"line" text NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "script_run_output_run_id_seq_pk" PRIMARY KEY("run_id","seq")
);
--> statement-breakpoint
CREATE TABLE "script_runs" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"script" text NOT NULL,
	"version" integer NOT NULL,
	"args" jsonb NOT NULL,
	"dry_run" boolean NOT NULL,
	"dangerous" boolean NOT NULL,
	"target" uuid NOT NULL,
	"requested_by" integer NOT NULL,
	"approved_by" integer,
	"status" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"approved_at" timestamp with time zone,
	"started_at" timestamp with time zone,
	"finished_at" timestamp with time zone,
	"result" jsonb,
	"error" text
);
--> statement-breakpoint
CREATE TABLE "server_processes" (
	"id" uuid PRIMARY KEY NOT NULL,
	"host" text NOT NULL,
	"pid" integer NOT NULL,
	"version" text NOT NULL,
	"database_kind" text NOT NULL,
	"started_at" timestamp with time zone NOT NULL,
	"last_beat_at" timestamp with time zone NOT NULL,
	"stopped_at" timestamp with time zone,
	"leaderships" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"jobs_running" integer DEFAULT 0 NOT NULL,
	"rss_bytes" bigint DEFAULT 0 NOT NULL,
	"heap_used_bytes" bigint DEFAULT 0 NOT NULL,
	"heap_total_bytes" bigint DEFAULT 0 NOT NULL,
	"loop_delay_p99_ms" real DEFAULT 0 NOT NULL,
	"pool_in_use" integer DEFAULT 0 NOT NULL,
	"pool_total" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
ALTER TABLE "recharges" ADD COLUMN "channel" smallint DEFAULT 1 NOT NULL;--> statement-breakpoint
CREATE INDEX "script_runs_target_status" ON "script_runs" USING btree ("target","status");--> statement-breakpoint
CREATE INDEX "script_runs_created" ON "script_runs" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "server_processes_beat" ON "server_processes" USING btree ("last_beat_at");