import type { DisputeEvidenceField } from "@/db/enums";

/**
 * Each evidence text's label and hint: the form's fields, and the evidence as sent. A plain module: the server
 * page reads it too, which it cannot from the client form's module (it would get a client reference).
 */
export const EVIDENCE_LABELS: Record<DisputeEvidenceField, { label: string; hint: string }> = {
  product_description: { label: "Product description", hint: "What was sold, and how it was delivered." },
  customer_name: { label: "Customer name", hint: "As the payer gave it." },
  customer_email: { label: "Customer email", hint: "As the payer gave it." },
  customer_communication: {
    label: "Customer communication",
    hint: "Emails or messages that show the payer knew of the purchase.",
  },
  receipt: { label: "Receipt", hint: "The order or invoice, as text." },
  shipping_tracking_number: { label: "Shipping tracking number", hint: "The carrier's number, for goods." },
  refund_policy: { label: "Refund policy", hint: "Your policy as the payer saw it, and how." },
  uncategorized_text: {
    label: "Other evidence",
    hint: "Anything else. In test, winning_evidence wins and losing_evidence loses, a few seconds after submission.",
  },
};
