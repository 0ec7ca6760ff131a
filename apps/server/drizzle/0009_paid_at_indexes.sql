CREATE INDEX "recharges_paid" ON "recharges" USING btree ("pay_status","paid_at");--> statement-breakpoint
CREATE INDEX "withdrawals_paid" ON "withdrawals" USING btree ("pay_status","paid_at");