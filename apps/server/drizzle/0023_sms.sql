CREATE TABLE "app_versions" (
	"id" serial PRIMARY KEY NOT NULL,
	"platform" text NOT NULL,
	"version" text NOT NULL,
	"version_code" integer DEFAULT 0 NOT NULL,
	"poster" text DEFAULT '' NOT NULL,
	"download_url" text DEFAULT '' NOT NULL,
	"update_text" text DEFAULT '' NOT NULL,
	"update_url" text DEFAULT '' NOT NULL,
	"force_update" boolean DEFAULT false NOT NULL,
	"updated_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "board_messages" (
	"id" serial PRIMARY KEY NOT NULL,
	"bettor_id" integer NOT NULL,
	"agent_id" integer NOT NULL,
	"phone" text NOT NULL,
	"content" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"read_at" timestamp with time zone,
	"read_by" integer,
	"replied_message_id" integer,
	"reply_content" text,
	"replied_at" timestamp with time zone,
	"replied_by" integer
);
--> statement-breakpoint
CREATE TABLE "message_reads" (
	"message_id" integer NOT NULL,
	"bettor_id" integer NOT NULL,
	"read_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "message_reads_message_id_bettor_id_pk" PRIMARY KEY("message_id","bettor_id")
);
--> statement-breakpoint
CREATE TABLE "message_recipients" (
	"message_id" integer NOT NULL,
	"bettor_id" integer NOT NULL,
	"read_at" timestamp with time zone,
	CONSTRAINT "message_recipients_message_id_bettor_id_pk" PRIMARY KEY("message_id","bettor_id")
);
--> statement-breakpoint
CREATE TABLE "messages" (
	"id" serial PRIMARY KEY NOT NULL,
	"title" text NOT NULL,
	"content" text NOT NULL,
	"audience" text NOT NULL,
	"all_users" boolean DEFAULT false NOT NULL,
	"scope_admin_id" integer,
	"filter" jsonb,
	"recipient_count" integer DEFAULT 0 NOT NULL,
	"delivered_count" integer DEFAULT 0 NOT NULL,
	"read_count" integer DEFAULT 0 NOT NULL,
	"status" text NOT NULL,
	"send_at" timestamp with time zone NOT NULL,
	"sent_at" timestamp with time zone,
	"first_read_at" timestamp with time zone,
	"sender_admin_id" integer NOT NULL,
	"board_message_id" integer,
	"deleted_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "push_config" (
	"id" integer PRIMARY KEY NOT NULL,
	"project_id" text DEFAULT '' NOT NULL,
	"service_account_json" text DEFAULT '' NOT NULL,
	"rate_per_second" integer DEFAULT 100 NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "push_devices" (
	"id" serial PRIMARY KEY NOT NULL,
	"bettor_id" integer,
	"agent_id" integer,
	"token" text NOT NULL,
	"platform" text NOT NULL,
	"model" text DEFAULT '' NOT NULL,
	"os_name" text DEFAULT '' NOT NULL,
	"os_version" text DEFAULT '' NOT NULL,
	"app_version" text DEFAULT '' NOT NULL,
	"phone" text,
	"last_title" text,
	"last_body" text,
	"last_pushed_at" timestamp with time zone,
	"invalid_at" timestamp with time zone,
	"invalid_reason" text,
	"registered_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "push_results" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"send_id" integer NOT NULL,
	"device_id" integer NOT NULL,
	"status" text NOT NULL,
	"error" text,
	"provider_id" text,
	"attempts" integer DEFAULT 0 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "push_sends" (
	"id" serial PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"title" text NOT NULL,
	"body" text NOT NULL,
	"segment" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"target_count" integer DEFAULT 0 NOT NULL,
	"sent_count" integer DEFAULT 0 NOT NULL,
	"failed_count" integer DEFAULT 0 NOT NULL,
	"invalid_count" integer DEFAULT 0 NOT NULL,
	"status" text DEFAULT 'queued' NOT NULL,
	"sender_admin_id" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "sandbox_push_accounts" (
	"client_email" text PRIMARY KEY NOT NULL,
	"project_id" text NOT NULL,
	"public_key" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sandbox_push_devices" (
	"token" text PRIMARY KEY NOT NULL,
	"project_id" text NOT NULL,
	"unregistered" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sandbox_push_messages" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"project_id" text NOT NULL,
	"token" text NOT NULL,
	"title" text,
	"body" text,
	"message" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "mall_brands" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"logo" text,
	"sort" integer DEFAULT 0 NOT NULL,
	"shown" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "mall_categories" (
	"id" serial PRIMARY KEY NOT NULL,
	"parent_id" integer,
	"title" text NOT NULL,
	"icon" text,
	"show_status" smallint DEFAULT 1 NOT NULL,
	"language" text DEFAULT 'en-US' NOT NULL,
	"sort" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "mall_products" (
	"id" serial PRIMARY KEY NOT NULL,
	"title" text NOT NULL,
	"category_id" integer NOT NULL,
	"brand_id" integer,
	"source" text,
	"model" text,
	"price" bigint NOT NULL,
	"lowest_price" bigint,
	"stock" integer DEFAULT 0 NOT NULL,
	"purchase_count" integer DEFAULT 0 NOT NULL,
	"ranking" integer DEFAULT 0 NOT NULL,
	"home_recommend" boolean DEFAULT false NOT NULL,
	"shown" boolean DEFAULT true NOT NULL,
	"cover_images" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"detail_images" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"properties" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"colours" text[] DEFAULT '{}' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sandbox_sms_messages" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"message_id" text NOT NULL,
	"username" text NOT NULL,
	"phone" text NOT NULL,
	"sender" text DEFAULT '' NOT NULL,
	"content" text NOT NULL,
	"outcome" text NOT NULL,
	"failure_reason" text,
	"cost_cents" bigint DEFAULT 0 NOT NULL,
	"reported" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sms_config" (
	"id" integer PRIMARY KEY NOT NULL,
	"username" text DEFAULT 'sandbox' NOT NULL,
	"api_key" text DEFAULT '' NOT NULL,
	"sender_id" text DEFAULT '' NOT NULL,
	"cost_per_segment_cents" bigint DEFAULT 2500 NOT NULL,
	"rate_per_second" integer DEFAULT 50 NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"callback_token" text DEFAULT md5(random()::text || clock_timestamp()::text) NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sms_exclusions" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"phone" text NOT NULL,
	"source" text DEFAULT 'manual' NOT NULL,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sms_recipients" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"send_id" bigint NOT NULL,
	"phone" text NOT NULL,
	"bettor_id" integer,
	"status" text DEFAULT 'queued' NOT NULL,
	"provider_message_id" text,
	"failure_reason" text,
	"sms_status" smallint DEFAULT 1 NOT NULL,
	"cost" text,
	"attempts" smallint DEFAULT 0 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sms_sends" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"content" text NOT NULL,
	"encoding" text NOT NULL,
	"segments" smallint NOT NULL,
	"target_kind" text NOT NULL,
	"target_spec" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"recipient_count" integer DEFAULT 0 NOT NULL,
	"excluded_count" integer DEFAULT 0 NOT NULL,
	"estimated_cost_cents" bigint DEFAULT 0 NOT NULL,
	"sent_count" integer DEFAULT 0 NOT NULL,
	"delivered_count" integer DEFAULT 0 NOT NULL,
	"failed_count" integer DEFAULT 0 NOT NULL,
	"status" text DEFAULT 'sending' NOT NULL,
	"sender_admin_id" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "sandbox_telegram_bots" (
	"id" bigint PRIMARY KEY NOT NULL,
	"token" text NOT NULL,
	"username" text NOT NULL,
	"first_name" text NOT NULL,
	"webhook_url" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "sandbox_telegram_bots_token_unique" UNIQUE("token")
);
--> statement-breakpoint
CREATE TABLE "sandbox_telegram_messages" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"bot_id" bigint NOT NULL,
	"direction" text NOT NULL,
	"chat_id" bigint NOT NULL,
	"from_id" bigint,
	"first_name" text,
	"username" text,
	"language_code" text,
	"text" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "telegram_bind_codes" (
	"id" serial PRIMARY KEY NOT NULL,
	"code_hash" text NOT NULL,
	"subject" text NOT NULL,
	"subject_id" integer NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "telegram_bindings" (
	"id" serial PRIMARY KEY NOT NULL,
	"subject" text NOT NULL,
	"admin_id" integer,
	"bettor_id" integer,
	"tg_user_id" bigint NOT NULL,
	"chat_id" bigint NOT NULL,
	"first_name" text DEFAULT '' NOT NULL,
	"username" text,
	"language_code" text,
	"bound_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "telegram_config" (
	"id" integer PRIMARY KEY NOT NULL,
	"bot_token" text DEFAULT '' NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"notify_admins" boolean DEFAULT true NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "telegram_deliveries" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"notice_id" integer NOT NULL,
	"chat_id" bigint NOT NULL,
	"status" text NOT NULL,
	"error" text,
	"message_id" bigint,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
DROP INDEX "activity_qualifications_once";--> statement-breakpoint
ALTER TABLE "activity_qualifications" ADD COLUMN "campaign_id" integer;--> statement-breakpoint
ALTER TABLE "activity_qualifications" ADD COLUMN "period_key" text;--> statement-breakpoint
ALTER TABLE "activity_qualifications" ADD COLUMN "qualifying_amount" bigint;--> statement-breakpoint
ALTER TABLE "activity_qualifications" ADD COLUMN "bill_id" bigint;--> statement-breakpoint
ALTER TABLE "activity_qualifications" ADD COLUMN "approved_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "app_versions_platform" ON "app_versions" USING btree ("platform","version_code");--> statement-breakpoint
CREATE INDEX "board_messages_agent" ON "board_messages" USING btree ("agent_id","id");--> statement-breakpoint
CREATE INDEX "board_messages_bettor" ON "board_messages" USING btree ("bettor_id","id");--> statement-breakpoint
CREATE INDEX "message_reads_bettor" ON "message_reads" USING btree ("bettor_id");--> statement-breakpoint
CREATE INDEX "message_recipients_bettor" ON "message_recipients" USING btree ("bettor_id","message_id");--> statement-breakpoint
CREATE INDEX "messages_sender" ON "messages" USING btree ("sender_admin_id","id");--> statement-breakpoint
CREATE INDEX "messages_broadcast" ON "messages" USING btree ("all_users","status","sent_at");--> statement-breakpoint
CREATE INDEX "messages_status" ON "messages" USING btree ("status","send_at");--> statement-breakpoint
CREATE UNIQUE INDEX "push_devices_token_uq" ON "push_devices" USING btree ("token");--> statement-breakpoint
CREATE INDEX "push_devices_agent_idx" ON "push_devices" USING btree ("agent_id");--> statement-breakpoint
CREATE INDEX "push_devices_bettor_idx" ON "push_devices" USING btree ("bettor_id");--> statement-breakpoint
CREATE UNIQUE INDEX "push_results_send_device_uq" ON "push_results" USING btree ("send_id","device_id");--> statement-breakpoint
CREATE INDEX "push_sends_sender_idx" ON "push_sends" USING btree ("sender_admin_id");--> statement-breakpoint
CREATE INDEX "sandbox_push_messages_token_idx" ON "sandbox_push_messages" USING btree ("token");--> statement-breakpoint
CREATE INDEX "mall_categories_parent" ON "mall_categories" USING btree ("parent_id");--> statement-breakpoint
CREATE INDEX "mall_categories_shown" ON "mall_categories" USING btree ("show_status","sort");--> statement-breakpoint
CREATE INDEX "mall_products_category" ON "mall_products" USING btree ("category_id");--> statement-breakpoint
CREATE INDEX "mall_products_brand" ON "mall_products" USING btree ("brand_id");--> statement-breakpoint
CREATE INDEX "mall_products_home" ON "mall_products" USING btree ("home_recommend","ranking");--> statement-breakpoint
CREATE UNIQUE INDEX "sandbox_sms_messages_id_uq" ON "sandbox_sms_messages" USING btree ("message_id");--> statement-breakpoint
CREATE INDEX "sandbox_sms_messages_phone_idx" ON "sandbox_sms_messages" USING btree ("phone");--> statement-breakpoint
CREATE UNIQUE INDEX "sms_exclusions_phone_uq" ON "sms_exclusions" USING btree ("phone");--> statement-breakpoint
CREATE UNIQUE INDEX "sms_recipients_send_phone_uq" ON "sms_recipients" USING btree ("send_id","phone");--> statement-breakpoint
CREATE INDEX "sms_recipients_send_status_idx" ON "sms_recipients" USING btree ("send_id","status","id");--> statement-breakpoint
CREATE INDEX "sms_recipients_message_idx" ON "sms_recipients" USING btree ("provider_message_id");--> statement-breakpoint
CREATE INDEX "sms_recipients_doubt_idx" ON "sms_recipients" USING btree ("phone") WHERE status = 'sending';--> statement-breakpoint
CREATE INDEX "sms_sends_sender_idx" ON "sms_sends" USING btree ("sender_admin_id","id");--> statement-breakpoint
CREATE INDEX "sandbox_telegram_messages_bot_idx" ON "sandbox_telegram_messages" USING btree ("bot_id","direction","id");--> statement-breakpoint
CREATE UNIQUE INDEX "telegram_bind_codes_hash_uq" ON "telegram_bind_codes" USING btree ("code_hash");--> statement-breakpoint
CREATE UNIQUE INDEX "telegram_bindings_admin_uq" ON "telegram_bindings" USING btree ("admin_id");--> statement-breakpoint
CREATE UNIQUE INDEX "telegram_bindings_bettor_uq" ON "telegram_bindings" USING btree ("bettor_id");--> statement-breakpoint
CREATE INDEX "telegram_bindings_tg_user_idx" ON "telegram_bindings" USING btree ("tg_user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "telegram_deliveries_notice_chat_uq" ON "telegram_deliveries" USING btree ("notice_id","chat_id");--> statement-breakpoint
CREATE UNIQUE INDEX "activity_qualifications_campaign_once" ON "activity_qualifications" USING btree ("campaign_id","bettor_id","period_key") WHERE "activity_qualifications"."campaign_id" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "activity_qualifications_once" ON "activity_qualifications" USING btree ("bettor_id","activity") WHERE "activity_qualifications"."campaign_id" is null;