-- One API key scope (decision 008): keys issued as "full" send data as before.
UPDATE "api_keys" SET "scope" = 'ingest' WHERE "scope" <> 'ingest';--> statement-breakpoint
ALTER TABLE "api_keys" DROP CONSTRAINT "api_keys_scope_check";--> statement-breakpoint
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_scope_check" CHECK ("api_keys"."scope" in ('ingest'));