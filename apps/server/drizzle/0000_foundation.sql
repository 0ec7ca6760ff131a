CREATE TABLE "login_attempts" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"account" text NOT NULL,
	"ip" text,
	"success" boolean NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sessions" (
	"id" text PRIMARY KEY NOT NULL,
	"token_hash" text NOT NULL,
	"admin_id" integer NOT NULL,
	"ws_key" text NOT NULL,
	"ip" text,
	"user_agent" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_seen_at" timestamp with time zone DEFAULT now() NOT NULL,
	"idle_expires_at" timestamp with time zone NOT NULL,
	"absolute_expires_at" timestamp with time zone NOT NULL,
	"revoked_at" timestamp with time zone,
	"revoked_reason" text,
	CONSTRAINT "sessions_token_hash_unique" UNIQUE("token_hash")
);
--> statement-breakpoint
CREATE TABLE "admins" (
	"id" serial PRIMARY KEY NOT NULL,
	"account" text NOT NULL,
	"name" text DEFAULT '' NOT NULL,
	"phone" text DEFAULT '' NOT NULL,
	"password_hash" text NOT NULL,
	"role_id" integer NOT NULL,
	"superior_id" integer,
	"path" text DEFAULT '/' NOT NULL,
	"share_ratio" numeric(9, 4) DEFAULT '0' NOT NULL,
	"balance" bigint DEFAULT 0 NOT NULL,
	"invitation_code" text,
	"online_status" smallint DEFAULT 1 NOT NULL,
	"online_updated_at" timestamp with time zone,
	"member_expiry" timestamp with time zone,
	"register_ip" text,
	"register_time" timestamp with time zone DEFAULT now() NOT NULL,
	"login_ip" text,
	"login_time" timestamp with time zone,
	"disabled" smallint DEFAULT 1 NOT NULL,
	"google_secret" text,
	"google_pending_secret" text,
	"google_bound" smallint DEFAULT 2 NOT NULL,
	"password_changed_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "admins_invitation_code_unique" UNIQUE("invitation_code")
);
--> statement-breakpoint
CREATE TABLE "ip_blacklist" (
	"id" serial PRIMARY KEY NOT NULL,
	"ip" text NOT NULL,
	"remark" text DEFAULT '' NOT NULL,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "ip_blacklist_ip_unique" UNIQUE("ip")
);
--> statement-breakpoint
CREATE TABLE "languages" (
	"id" serial PRIMARY KEY NOT NULL,
	"code" text NOT NULL,
	"title" text NOT NULL,
	"default_language" smallint DEFAULT 1 NOT NULL,
	"show_status" smallint DEFAULT 2 NOT NULL,
	"icon" text DEFAULT '' NOT NULL,
	"country" text DEFAULT '' NOT NULL,
	"abbreviation" text DEFAULT '' NOT NULL,
	"phone_code" text DEFAULT '' NOT NULL,
	"sort" integer DEFAULT 0 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "languages_code_unique" UNIQUE("code")
);
--> statement-breakpoint
CREATE TABLE "log_config" (
	"id" serial PRIMARY KEY NOT NULL,
	"logger" text NOT NULL,
	"level" smallint DEFAULT 3 NOT NULL,
	"retention_days" integer DEFAULT 180 NOT NULL,
	"options" text DEFAULT '{}' NOT NULL,
	"remark" text DEFAULT '' NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "log_config_logger_unique" UNIQUE("logger")
);
--> statement-breakpoint
CREATE TABLE "log_types" (
	"id" integer PRIMARY KEY NOT NULL,
	"code" text NOT NULL,
	"name" text NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"remarks" text DEFAULT '' NOT NULL,
	CONSTRAINT "log_types_code_unique" UNIQUE("code")
);
--> statement-breakpoint
CREATE TABLE "menu_items" (
	"id" serial PRIMARY KEY NOT NULL,
	"key" text NOT NULL,
	"parent_id" integer,
	"name" text NOT NULL,
	"language_variables" text NOT NULL,
	"path" text NOT NULL,
	"type" smallint NOT NULL,
	"platform" smallint DEFAULT 1 NOT NULL,
	"show_headshot" smallint DEFAULT 1 NOT NULL,
	"hidden" boolean DEFAULT false NOT NULL,
	"icon" text,
	"sort" integer DEFAULT 0 NOT NULL,
	"allow_select" boolean DEFAULT true NOT NULL,
	CONSTRAINT "menu_items_key_unique" UNIQUE("key")
);
--> statement-breakpoint
CREATE TABLE "notifications" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"admin_id" integer NOT NULL,
	"content" text NOT NULL,
	"notify_status" smallint DEFAULT 1 NOT NULL,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"viewed_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "role_menus" (
	"role_id" integer NOT NULL,
	"menu_id" integer NOT NULL,
	CONSTRAINT "role_menus_role_id_menu_id_pk" PRIMARY KEY("role_id","menu_id")
);
--> statement-breakpoint
CREATE TABLE "roles" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"remarks" text DEFAULT '' NOT NULL,
	"is_super" boolean DEFAULT false NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "roles_name_unique" UNIQUE("name")
);
--> statement-breakpoint
CREATE TABLE "site_config" (
	"id" integer PRIMARY KEY NOT NULL,
	"title" text NOT NULL,
	"icon" text DEFAULT '' NOT NULL,
	"color" text NOT NULL,
	"logo" text DEFAULT '' NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "subscriber_config" (
	"id" integer PRIMARY KEY NOT NULL,
	"share_ratio" numeric(9, 4) DEFAULT '0' NOT NULL,
	"online_check" boolean DEFAULT true NOT NULL,
	"login_failure_limit" integer DEFAULT 5 NOT NULL,
	"failure_window_minutes" integer DEFAULT 15 NOT NULL,
	"allow_registration" boolean DEFAULT false NOT NULL,
	"no_registration_tip" text DEFAULT '' NOT NULL,
	"default_role_id" integer,
	"session_idle_minutes" integer DEFAULT 120 NOT NULL,
	"session_absolute_hours" integer DEFAULT 12 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "system_logs" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"type" integer NOT NULL,
	"content" text NOT NULL,
	"action" text,
	"method" text,
	"route" text,
	"status" integer,
	"admin_id" integer,
	"account" text,
	"ip" text,
	"server_ip" text,
	"source" text DEFAULT 'api' NOT NULL,
	"user_agent" text,
	"before" jsonb,
	"after" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "admins" ADD CONSTRAINT "admins_role_id_roles_id_fk" FOREIGN KEY ("role_id") REFERENCES "public"."roles"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "role_menus" ADD CONSTRAINT "role_menus_role_id_roles_id_fk" FOREIGN KEY ("role_id") REFERENCES "public"."roles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "role_menus" ADD CONSTRAINT "role_menus_menu_id_menu_items_id_fk" FOREIGN KEY ("menu_id") REFERENCES "public"."menu_items"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "login_attempts_account_time" ON "login_attempts" USING btree ("account","created_at");--> statement-breakpoint
CREATE INDEX "sessions_admin" ON "sessions" USING btree ("admin_id");--> statement-breakpoint
CREATE UNIQUE INDEX "admins_account_lower" ON "admins" USING btree (lower("account"));--> statement-breakpoint
CREATE INDEX "admins_path" ON "admins" USING btree ("path");--> statement-breakpoint
CREATE INDEX "admins_superior" ON "admins" USING btree ("superior_id");--> statement-breakpoint
CREATE INDEX "notifications_admin_status" ON "notifications" USING btree ("admin_id","notify_status","id");--> statement-breakpoint
CREATE INDEX "system_logs_created" ON "system_logs" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "system_logs_type_created" ON "system_logs" USING btree ("type","created_at");--> statement-breakpoint
CREATE INDEX "system_logs_admin_created" ON "system_logs" USING btree ("admin_id","created_at");