DROP INDEX "learning_event_keys_org_received_idx";--> statement-breakpoint
CREATE INDEX "learning_event_keys_org_occurred_idx" ON "learning_event_keys" USING btree ("organization_id","occurred_at");