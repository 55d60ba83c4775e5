npx payments login --api-url "$PAYMENTS_API_URL" --api-key "$PAYMENTS_API_KEY"   # checked against the API, saved 0600
npx payments listen --print-secret      # the whsec_ secret your app verifies forwarded events with
npx payments listen --forward-to "${FORWARD_TO:-http://localhost:4242/webhooks}"   # a line per event and answer; ^C quits
