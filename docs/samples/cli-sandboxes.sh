npx payments login --api-url "$PAYMENTS_API_URL" --api-key "$PAYMENTS_ACCOUNT_KEY"   # an account key, pay_acct_…
sandbox="$(npx payments sandboxes create --name "ci-${RUN_ID:-local}" --json)"   # its id and its pay_test_ key
export PAYMENTS_API_KEY="$(node -p 'JSON.parse(process.argv[1]).token' "$sandbox")"   # what the tests use
npx payments sandboxes list
npx payments sandboxes delete "$(node -p 'JSON.parse(process.argv[1]).id' "$sandbox")"   # and all its data
