ALTER TABLE "api_request_logs" DROP CONSTRAINT "api_request_logs_merchant_id_merchants_id_fk";
--> statement-breakpoint
DROP INDEX "api_request_logs_created_idx";--> statement-breakpoint
CREATE INDEX "api_request_logs_created_idx" ON "api_request_logs" USING brin ("created_at");