npx payments login --api-url "$PAYMENTS_API_URL" --api-key "$PAYMENTS_ACCOUNT_KEY"   # an account key, pay_acct_…
# A sandbox whose time starts at CLOCK_START (e.g. 2026-10-01) and moves only when told.
sandbox="$(npx payments sandboxes create --name "month-end-${RUN_ID:-local}" --clock "$CLOCK_START" --json)"
export PAYMENTS_API_KEY="$(node -p 'JSON.parse(process.argv[1]).token' "$sandbox")"   # the sandbox's key
npx payments trigger payment.completed --amount 100.00 --currency USD   # paid at CLOCK_START
npx payments balance   # pending: available two days after the payment
curl -s "$PAYMENTS_API_URL/api/test-helpers/clock/advance" -H "Authorization: Bearer $PAYMENTS_API_KEY" \
  -H 'Content-Type: application/json' -d '{"by": "P1M"}'   # a month on, in a moment
echo
npx payments balance   # available
