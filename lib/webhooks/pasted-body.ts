/**
 * A body as the debugger compares it. A text box sends its line breaks as CRLF (HTML forms do, whatever was
 * typed or pasted), while a body this platform signs is one line of JSON; so a CRLF is read as the LF the
 * user typed, and an answer that depends on line endings says so.
 */
export function withLfLineEndings(body: string): string {
  return body.replace(/\r\n/g, "\n");
}

/** Said with a verdict reached only once the pasted CRLF line endings were read as LF. */
export const CRLF_READ_AS_LF =
  "(Its CRLF line endings were read as LF: a text box adds the CR. A receiver must verify the body exactly as received.)";

/** The first offset at which two texts differ. */
function firstDifference(a: string, b: string): number {
  let index = 0;
  while (index < a.length && index < b.length && a[index] === b[index]) index++;
  return index;
}

const lineBreaks = (text: string) => text.match(/\n/g)?.length ?? 0;

/** Why `body` is not `signed`, the body signed for event `id`: where they first differ, or that only line breaks do. */
export function bodyDifference(id: string, signed: string, body: string): string {
  const offset = firstDifference(signed, body);
  if (signed.replace(/\n/g, "") === body.replace(/\n/g, "")) {
    const counts = `the signed body has ${lineBreaks(signed)} line break${lineBreaks(signed) === 1 ? "" : "s"}, this one ${lineBreaks(body)}`;
    return `The body differs from the one signed for ${id} only in line endings: ${counts}, the first difference at character ${offset}. Paste the body exactly as received, with no line break added after it.`;
  }
  return `The body is not the one signed for ${id}: they first differ at character ${offset} (the signed body has ${JSON.stringify(signed.slice(offset, offset + 12))}, this one ${JSON.stringify(body.slice(offset, offset + 12))}). Verify the raw bytes as received, before any JSON parsing or re-serialising.`;
}
