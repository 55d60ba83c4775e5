import { CopyButton } from "./ui/copy-button";

/** Pretty-prints JSON for reading; text that is not JSON is shown as it is. */
function pretty(body: string): string {
  try {
    return JSON.stringify(JSON.parse(body), null, 2);
  } catch {
    return body;
  }
}

/**
 * A JSON body behind a disclosure: indented to read, and "Copy" copies the exact bytes (what was signed),
 * not the indented text, so a pasted body still verifies.
 */
export function JsonViewer({
  body,
  summary = "View body",
  open = false,
}: {
  body: string;
  summary?: string;
  /** Shown unfolded, where the body is what the page is about. */
  open?: boolean;
}) {
  return (
    <details className="group" open={open}>
      <summary className="cursor-pointer text-xs font-medium text-indigo-700 hover:underline dark:text-indigo-300">
        {summary}
      </summary>
      <div className="mt-2 space-y-2">
        {/* Focusable, so a keyboard can scroll a long body. */}
        <pre
          tabIndex={0}
          aria-label={summary}
          className="max-h-80 overflow-auto rounded-md bg-zinc-950 p-3 font-mono text-xs leading-relaxed text-zinc-100"
        >
          {pretty(body)}
        </pre>
        <CopyButton value={body} label="Copy body" />
      </div>
    </details>
  );
}
