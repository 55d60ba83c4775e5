ALTER TABLE "payments" ADD COLUMN "failure_code" text;--> statement-breakpoint
-- The code of the payments that had already failed, read from the words they were stored with; any other
-- words (the simulator's failing amounts, marked failed by hand or by the test helper) are processor_declined.
-- One statement: failed payments are final, so the rows it locks are rows nothing else writes, and they are
-- a small share of the table.
UPDATE "payments" SET "failure_code" = CASE
    WHEN "failure_reason" = 'Canceled by the merchant.' THEN 'canceled'
    WHEN "failure_reason" LIKE 'Expired: %' THEN 'expired'
    WHEN "failure_reason" = 'Your card was declined.' THEN 'card_declined'
    WHEN "failure_reason" = 'Your card has insufficient funds.' THEN 'insufficient_funds'
    WHEN "failure_reason" = 'Your card has expired.' THEN 'expired_card'
    WHEN "failure_reason" = 'The payer failed authentication.' THEN 'authentication_failed'
    ELSE 'processor_declined'
  END
WHERE "status" = 'failed';
