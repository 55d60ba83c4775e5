npx payments trigger refund.succeeded   # a payment, paid, then refunded: listen forwards each of its events
