npx payments login --api-url "$PAYMENTS_API_URL" --api-key "$PAYMENTS_ACCOUNT_KEY"   # an account key, pay_acct_…
sandbox="$(npx payments sandboxes create --name "ci-${RUN_ID:-local}" --json)"   # its id and its pay_test_ key
sandbox_key="$(node -p 'JSON.parse(process.argv[1]).token' "$sandbox")"
PAYMENTS_API_KEY="$sandbox_key" npx payments balance   # your tests, with the sandbox's key
npx payments sandboxes list
npx payments sandboxes delete "$(node -p 'JSON.parse(process.argv[1]).id' "$sandbox")"   # and all its data
