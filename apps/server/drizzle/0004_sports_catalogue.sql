CREATE TABLE "betting_types" (
	"id" serial PRIMARY KEY NOT NULL,
	"sport_id" smallint NOT NULL,
	"name" text NOT NULL,
	"is_over_under" boolean DEFAULT false NOT NULL,
	"type_flag" smallint DEFAULT 0 NOT NULL,
	"sort" integer DEFAULT 0 NOT NULL,
	"is_visible" boolean DEFAULT true NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "event_parts" (
	"id" serial PRIMARY KEY NOT NULL,
	"sport_id" smallint NOT NULL,
	"name" text NOT NULL,
	"sort" integer DEFAULT 0 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "event_templates" (
	"id" serial PRIMARY KEY NOT NULL,
	"sport_id" smallint NOT NULL,
	"name" text NOT NULL,
	"periods" smallint DEFAULT 2 NOT NULL,
	"period_minutes" smallint DEFAULT 45 NOT NULL,
	"overtime" boolean DEFAULT false NOT NULL,
	"overtime_minutes" smallint DEFAULT 0 NOT NULL,
	"penalties" boolean DEFAULT false NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "gameplay_classifications" (
	"id" serial PRIMARY KEY NOT NULL,
	"sport_id" smallint NOT NULL,
	"name" text NOT NULL,
	"betting_type_ids" text DEFAULT '' NOT NULL,
	"sort" integer DEFAULT 0 NOT NULL,
	"is_visible" boolean DEFAULT true NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "leagues" (
	"id" serial PRIMARY KEY NOT NULL,
	"sport_id" smallint NOT NULL,
	"location_id" integer NOT NULL,
	"name" text NOT NULL,
	"name_zh" text DEFAULT '' NOT NULL,
	"short_name" text DEFAULT '' NOT NULL,
	"popularity" integer DEFAULT 0 NOT NULL,
	"sort" integer DEFAULT 0 NOT NULL,
	"is_visible" boolean DEFAULT true NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "locations" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"name_zh" text DEFAULT '' NOT NULL,
	"type" smallint DEFAULT 1 NOT NULL,
	"parent_id" integer,
	"code" text DEFAULT '' NOT NULL,
	"sort" integer DEFAULT 0 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "option_translations" (
	"id" serial PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"source_id" integer NOT NULL,
	"language_code" text NOT NULL,
	"text" text NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "outcome_sorting_types" (
	"id" serial PRIMARY KEY NOT NULL,
	"betting_type_id" integer NOT NULL,
	"outcome" text NOT NULL,
	"sort" integer DEFAULT 0 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "popular_leagues" (
	"id" serial PRIMARY KEY NOT NULL,
	"league_id" integer NOT NULL,
	"sort" integer DEFAULT 0 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "popular_leagues_league_id_unique" UNIQUE("league_id")
);
--> statement-breakpoint
CREATE TABLE "price_margins" (
	"id" serial PRIMARY KEY NOT NULL,
	"sport_id" smallint NOT NULL,
	"league_id" integer,
	"margin" integer DEFAULT 500 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "price_margins_sport_league_uq" UNIQUE NULLS NOT DISTINCT("sport_id","league_id")
);
--> statement-breakpoint
CREATE TABLE "teams" (
	"id" serial PRIMARY KEY NOT NULL,
	"sport_id" smallint NOT NULL,
	"location_id" integer,
	"name" text NOT NULL,
	"name_zh" text DEFAULT '' NOT NULL,
	"abbreviation" text DEFAULT '' NOT NULL,
	"logo" text DEFAULT '' NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "leagues" ADD CONSTRAINT "leagues_location_id_locations_id_fk" FOREIGN KEY ("location_id") REFERENCES "public"."locations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "outcome_sorting_types" ADD CONSTRAINT "outcome_sorting_types_betting_type_id_betting_types_id_fk" FOREIGN KEY ("betting_type_id") REFERENCES "public"."betting_types"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "popular_leagues" ADD CONSTRAINT "popular_leagues_league_id_leagues_id_fk" FOREIGN KEY ("league_id") REFERENCES "public"."leagues"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "price_margins" ADD CONSTRAINT "price_margins_league_id_leagues_id_fk" FOREIGN KEY ("league_id") REFERENCES "public"."leagues"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "teams" ADD CONSTRAINT "teams_location_id_locations_id_fk" FOREIGN KEY ("location_id") REFERENCES "public"."locations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "betting_types_sport_name_uq" ON "betting_types" USING btree ("sport_id","name");--> statement-breakpoint
CREATE UNIQUE INDEX "event_parts_sport_name_uq" ON "event_parts" USING btree ("sport_id","name");--> statement-breakpoint
CREATE UNIQUE INDEX "event_templates_sport_name_uq" ON "event_templates" USING btree ("sport_id","name");--> statement-breakpoint
CREATE UNIQUE INDEX "leagues_sport_location_name_uq" ON "leagues" USING btree ("sport_id","location_id","name");--> statement-breakpoint
CREATE INDEX "leagues_location_idx" ON "leagues" USING btree ("location_id");--> statement-breakpoint
CREATE UNIQUE INDEX "locations_name_type_uq" ON "locations" USING btree ("name","type");--> statement-breakpoint
CREATE INDEX "locations_parent_idx" ON "locations" USING btree ("parent_id");--> statement-breakpoint
CREATE UNIQUE INDEX "option_translations_kind_source_lang_uq" ON "option_translations" USING btree ("kind","source_id","language_code");--> statement-breakpoint
CREATE UNIQUE INDEX "outcome_sorting_types_type_outcome_uq" ON "outcome_sorting_types" USING btree ("betting_type_id","outcome");--> statement-breakpoint
CREATE UNIQUE INDEX "teams_sport_name_uq" ON "teams" USING btree ("sport_id","name");