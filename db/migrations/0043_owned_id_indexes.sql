-- By id alone, beside the merchant-first primary keys of migration 0041: only the API's 403-or-404 asks by id
-- alone, after a lookup scoped to the caller missed (lib/platform/ownership.ts).
CREATE INDEX "payment_links_id_idx" ON "payment_links" USING btree ("id");--> statement-breakpoint
CREATE INDEX "events_id_idx" ON "events" USING btree ("id");--> statement-breakpoint
CREATE INDEX "payments_id_idx" ON "payments" USING btree ("id");--> statement-breakpoint
CREATE INDEX "refunds_id_idx" ON "refunds" USING btree ("id");--> statement-breakpoint
CREATE INDEX "webhook_deliveries_id_idx" ON "webhook_deliveries" USING btree ("id");--> statement-breakpoint
CREATE INDEX "webhook_endpoints_id_idx" ON "webhook_endpoints" USING btree ("id");