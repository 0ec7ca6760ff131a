-- Issue 29. Saved filters: a list's filters, sort and page size (its URL query) saved by an admin under a
-- name, one of them pinned as the list's default for that admin, optionally shared read-only with a role.
CREATE TABLE "saved_filters" (
	"id" serial PRIMARY KEY NOT NULL,
	"admin_id" integer NOT NULL,
	"page" text NOT NULL,
	"name" text NOT NULL,
	"query" text DEFAULT '' NOT NULL,
	"is_default" boolean DEFAULT false NOT NULL,
	"shared_role_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);--> statement-breakpoint
ALTER TABLE "saved_filters" ADD CONSTRAINT "saved_filters_admin_id_admins_id_fk" FOREIGN KEY ("admin_id") REFERENCES "public"."admins"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "saved_filters" ADD CONSTRAINT "saved_filters_shared_role_id_roles_id_fk" FOREIGN KEY ("shared_role_id") REFERENCES "public"."roles"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "saved_filters_name" ON "saved_filters" USING btree ("admin_id","page","name");--> statement-breakpoint
CREATE UNIQUE INDEX "saved_filters_default" ON "saved_filters" USING btree ("admin_id","page") WHERE is_default;--> statement-breakpoint
CREATE INDEX "saved_filters_shared" ON "saved_filters" USING btree ("shared_role_id","page") WHERE shared_role_id is not null;
