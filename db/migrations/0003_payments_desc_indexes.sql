DROP INDEX "payments_merchant_created_idx";--> statement-breakpoint
DROP INDEX "payments_merchant_status_created_idx";--> statement-breakpoint
CREATE INDEX "payments_merchant_created_idx" ON "payments" USING btree ("merchant_id","created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "payments_merchant_status_created_idx" ON "payments" USING btree ("merchant_id","status","created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);