DROP INDEX "events_merchant_created_idx";--> statement-breakpoint
CREATE INDEX "events_merchant_created_id_idx" ON "events" USING btree ("merchant_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "events_merchant_type_created_idx" ON "events" USING btree ("merchant_id","type","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "events_created_idx" ON "events" USING btree ("created_at");