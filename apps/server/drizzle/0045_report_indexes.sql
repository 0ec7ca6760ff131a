-- Issue 30. What the significant events and the void and resettlement report read by period: the order
-- changes of a kind (voids, result changes, resettlements) and the withdrawals a second admin approved or
-- an admin refused, by the time they were reviewed. The failed sign-in bursts use system_logs_type_created.
CREATE INDEX "order_events_kind_created" ON "order_events" USING btree ("kind","created_at");--> statement-breakpoint
CREATE INDEX "withdrawals_second_approved" ON "withdrawals" USING btree ("reviewed_at") WHERE second_approver_id IS NOT NULL;--> statement-breakpoint
CREATE INDEX "withdrawals_refused" ON "withdrawals" USING btree ("reviewed_at") WHERE refused_by IS NOT NULL;
