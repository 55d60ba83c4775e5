curl -X POST "$PAYMENTS_API_URL/api/payments" -H "Authorization: Bearer $PAYMENTS_API_KEY" \
  -H 'Content-Type: application/json' -d '{"amount":"25.00"}'
