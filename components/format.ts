/** Dashboard date display: UTC, to the minute, the same on server and client render. */
export function formatDateTime(value: Date | string | null | undefined): string {
  if (!value) return "—";
  return `${new Date(value).toISOString().slice(0, 16).replace("T", " ")} UTC`;
}
