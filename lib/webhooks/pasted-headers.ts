/**
 * Headers as QA pastes them into the debugger: a JSON object, or "Name: value" lines as curl -v, a proxy or a
 * server log prints them ("> " and "< " prefixes are dropped). Undefined when it is neither.
 */
export function parsePastedHeaders(text: string): Record<string, string> | undefined {
  const trimmed = text.trim();
  if (trimmed.startsWith("{")) {
    try {
      const parsed: unknown = JSON.parse(trimmed);
      if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) return undefined;
      return Object.fromEntries(Object.entries(parsed).map(([name, value]) => [name, String(value)]));
    } catch {
      return undefined;
    }
  }
  const headers: Record<string, string> = {};
  for (const line of trimmed.split(/\r?\n/)) {
    const match = /^(?:[<>]\s*)?([A-Za-z0-9-]+)\s*:\s*(.*)$/.exec(line.trim());
    if (match) headers[match[1]!.toLowerCase()] = match[2]!.trim();
    else if (line.trim() !== "" && !/^(?:[<>]\s*)?(?:HTTP\/|POST |GET )/.test(line.trim())) return undefined;
  }
  return Object.keys(headers).length > 0 ? headers : undefined;
}
