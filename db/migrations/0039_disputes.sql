CREATE TABLE "disputes" (
	"merchant_id" bigint NOT NULL,
	"id" bigint GENERATED ALWAYS AS IDENTITY (sequence name "disputes_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"payment_id" bigint NOT NULL,
	"amount" numeric NOT NULL,
	"currency" text NOT NULL,
	"reason" text NOT NULL,
	"status" text NOT NULL,
	"evidence" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"evidence_submitted_at" timestamp (3) with time zone,
	"evidence_due_by" timestamp (3) with time zone NOT NULL,
	"decision" text,
	"decide_at" timestamp (3) with time zone,
	"closed_at" timestamp (3) with time zone,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "disputes_merchant_id_id_pk" PRIMARY KEY("merchant_id","id")
);
--> statement-breakpoint
CREATE TABLE "scheduled_disputes" (
	"merchant_id" bigint NOT NULL,
	"payment_id" bigint NOT NULL,
	"reason" text NOT NULL,
	"inquiry" boolean DEFAULT false NOT NULL,
	"open_at" timestamp (3) with time zone NOT NULL,
	CONSTRAINT "scheduled_disputes_merchant_id_payment_id_pk" PRIMARY KEY("merchant_id","payment_id")
);
--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "dispute_status" text;--> statement-breakpoint
ALTER TABLE "disputes" ADD CONSTRAINT "disputes_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "scheduled_disputes" ADD CONSTRAINT "scheduled_disputes_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "disputes_merchant_payment_idx" ON "disputes" USING btree ("merchant_id","payment_id");--> statement-breakpoint
CREATE INDEX "disputes_merchant_created_idx" ON "disputes" USING btree ("merchant_id","created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "disputes_merchant_status_created_idx" ON "disputes" USING btree ("merchant_id","status","created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "disputes_due_idx" ON "disputes" USING btree ("evidence_due_by") WHERE "disputes"."status" in ('needs_response', 'warning_needs_response');--> statement-breakpoint
CREATE INDEX "disputes_decide_idx" ON "disputes" USING btree ("decide_at") WHERE "disputes"."decide_at" is not null;--> statement-breakpoint
CREATE INDEX "scheduled_disputes_open_idx" ON "scheduled_disputes" USING btree ("open_at");