CREATE TABLE "totp_steps" (
	"admin_id" integer PRIMARY KEY NOT NULL,
	"last_step" bigint NOT NULL
);
--> statement-breakpoint
CREATE INDEX "login_attempts_ip_time" ON "login_attempts" USING btree ("ip","created_at");--> statement-breakpoint
CREATE INDEX "login_attempts_known_place" ON "login_attempts" USING btree ("account","ip") WHERE "login_attempts"."success";