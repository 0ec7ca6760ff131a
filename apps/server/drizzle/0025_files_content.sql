CREATE TABLE "image_text_types" (
	"id" serial PRIMARY KEY NOT NULL,
	"code" text NOT NULL,
	"name" text NOT NULL,
	"sort" integer DEFAULT 0 NOT NULL,
	"remarks" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "image_text_types_code_unique" UNIQUE("code")
);
--> statement-breakpoint
CREATE TABLE "image_texts" (
	"id" serial PRIMARY KEY NOT NULL,
	"type_id" integer NOT NULL,
	"title" text NOT NULL,
	"cover" text DEFAULT '' NOT NULL,
	"body" text DEFAULT '' NOT NULL,
	"language" text DEFAULT 'en-US' NOT NULL,
	"shown" boolean DEFAULT true NOT NULL,
	"sort" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "rotation_types" (
	"id" serial PRIMARY KEY NOT NULL,
	"code" text NOT NULL,
	"name" text NOT NULL,
	"remarks" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "rotation_types_code_unique" UNIQUE("code")
);
--> statement-breakpoint
CREATE TABLE "rotations" (
	"id" serial PRIMARY KEY NOT NULL,
	"type_id" integer NOT NULL,
	"picture" text NOT NULL,
	"title" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"jump_url" text DEFAULT '' NOT NULL,
	"jump_type" smallint DEFAULT 1 NOT NULL,
	"sort" integer DEFAULT 0 NOT NULL,
	"clicks" integer DEFAULT 0 NOT NULL,
	"shown" boolean DEFAULT true NOT NULL,
	"start_at" timestamp with time zone,
	"end_at" timestamp with time zone,
	"remarks" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "image_config" (
	"id" integer PRIMARY KEY NOT NULL,
	"upload_type" text DEFAULT 'local' NOT NULL,
	"domain" text DEFAULT '' NOT NULL,
	"region" text DEFAULT '' NOT NULL,
	"access_key_id" text DEFAULT '' NOT NULL,
	"access_key_secret" text DEFAULT '' NOT NULL,
	"bucket" text DEFAULT '' NOT NULL,
	"save_path" text DEFAULT '' NOT NULL,
	"max_size" integer DEFAULT 5242880 NOT NULL,
	"allowed_types" text DEFAULT 'png,jpeg,gif,webp' NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "uploads" (
	"name" text PRIMARY KEY NOT NULL,
	"content_type" text NOT NULL,
	"size" bigint NOT NULL,
	"storage" text NOT NULL,
	"bucket" text DEFAULT '' NOT NULL,
	"object_key" text NOT NULL,
	"uploaded_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "visit_hourly" (
	"hour" timestamp with time zone NOT NULL,
	"day" text NOT NULL,
	"hour_of_day" smallint NOT NULL,
	"device" smallint NOT NULL,
	"source" smallint NOT NULL,
	"country" text NOT NULL,
	"kind" smallint NOT NULL,
	"visits" integer DEFAULT 0 NOT NULL,
	"visitors" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "visit_hourly_hour_device_source_country_kind_pk" PRIMARY KEY("hour","device","source","country","kind")
);
--> statement-breakpoint
CREATE TABLE "visitor_profiles" (
	"visitor_key" text PRIMARY KEY NOT NULL,
	"first_day" text NOT NULL,
	"last_day" text NOT NULL,
	"first_seen_at" timestamp with time zone NOT NULL,
	"last_seen_at" timestamp with time zone NOT NULL,
	"visits" integer DEFAULT 0 NOT NULL,
	"day_visits" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "visits" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"visitor_key" text NOT NULL,
	"kind" smallint NOT NULL,
	"device" smallint NOT NULL,
	"source" smallint NOT NULL,
	"country" text NOT NULL,
	"path" text DEFAULT '/' NOT NULL,
	"visited_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "messages" ADD COLUMN "deliver_cursor" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "image_texts" ADD CONSTRAINT "image_texts_type_id_image_text_types_id_fk" FOREIGN KEY ("type_id") REFERENCES "public"."image_text_types"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rotations" ADD CONSTRAINT "rotations_type_id_rotation_types_id_fk" FOREIGN KEY ("type_id") REFERENCES "public"."rotation_types"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "image_texts_type_language_idx" ON "image_texts" USING btree ("type_id","language","sort");--> statement-breakpoint
CREATE INDEX "rotations_type_sort_idx" ON "rotations" USING btree ("type_id","sort");--> statement-breakpoint
CREATE INDEX "uploads_created_at_idx" ON "uploads" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "visit_hourly_day" ON "visit_hourly" USING btree ("day");--> statement-breakpoint
CREATE INDEX "visits_at" ON "visits" USING btree ("visited_at");--> statement-breakpoint
CREATE INDEX "visits_visitor" ON "visits" USING btree ("visitor_key","visited_at");