/**
 * A payment's metadata as the dashboard shows it: a JSON object's keys and values (nested values as
 * compact JSON), or null for none. Text that is not a JSON object is one entry under "value", as it is.
 */
export function metadataEntries(metadata: string | null): Array<[string, string]> | null {
  if (metadata === null || metadata.trim() === "" || metadata.trim() === "null") return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(metadata);
  } catch {
    return [["value", metadata]];
  }
  if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) return [["value", metadata]];
  const entries = Object.entries(parsed as Record<string, unknown>);
  if (entries.length === 0) return null;
  return entries.map(([key, value]) => [key, typeof value === "string" ? value : JSON.stringify(value)]);
}
