import { Alert } from "./ui/alert";
import { CopyButton } from "./ui/copy-button";
/** The one time a key's plaintext is shown: a new or rolled API key, a new sandbox's, an account key. */
export function RevealedTokenPanel({ revealed }: { revealed: { name: string; token: string } }) {
  return (
    <section aria-label="New API token" className="space-y-3">
      <Alert tone="success">
        Copy your new token &ldquo;{revealed.name}&rdquo; now. You won&apos;t see it again.
      </Alert>
      <div className="flex flex-wrap items-center gap-2">
        <code
          data-testid="new-token"
          className="min-w-0 flex-1 break-all rounded-md bg-zinc-100 px-3 py-2 font-mono text-sm dark:bg-zinc-800"
        >
          {revealed.token}
        </code>
        <CopyButton value={revealed.token} label="Copy token" />
      </div>
    </section>
  );
}
