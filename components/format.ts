/** Dashboard date display: UTC, to the minute, the same on server and client render. */
export function formatDateTime(value: Date | string | null | undefined): string {
  if (!value) return "—";
  return `${new Date(value).toISOString().slice(0, 16).replace("T", " ")} UTC`;
}

/**
 * An amount as money reads: "1250.5" → "1,250.50", and "1,250.50 EUR" when the merchant has chosen a display
 * currency. Grouped and padded as text, never through a float, so 999999999999.99 stays exact.
 */
export function formatMoney(amount: string, currency?: string | null): string {
  const figure = groupAmount(amount);
  return currency ? `${figure} ${currency}` : figure;
}

function groupAmount(amount: string): string {
  const [whole = "0", fraction = ""] = amount.replace(/^\+/, "").split(".");
  const negative = whole.startsWith("-");
  const digits = (negative ? whole.slice(1) : whole).replace(/^0+(?=\d)/, "") || "0";
  const grouped = digits.replace(/\B(?=(\d{3})+(?!\d))/g, ",");
  return `${negative ? "-" : ""}${grouped}.${fraction.padEnd(2, "0").slice(0, 2)}`;
}
