import { ActionForm } from "@/components/action-form";
import { RelativeTime } from "@/components/relative-time";
import { Card, CardList } from "@/components/ui/card-list";
import { SimpleTable } from "@/components/ui/simple-table";
import type { UserSession } from "@/lib/accounts/sessions";
import { signOutOtherSessions, signOutSession } from "./actions";

const BROWSERS: [RegExp, string][] = [
  [/Edg\//, "Edge"],
  [/OPR\//, "Opera"],
  [/Firefox\//, "Firefox"],
  [/Chrom(e|ium)\//, "Chrome"],
  [/Safari\//, "Safari"],
];
const SYSTEMS: [RegExp, string][] = [
  [/Android/, "Android"],
  [/iPhone|iPad/, "iOS"],
  [/Windows/, "Windows"],
  [/Mac OS X|Macintosh/, "macOS"],
  [/CrOS/, "ChromeOS"],
  [/Linux/, "Linux"],
];

/** "Chrome on Linux" from a User-Agent header; what cannot be told is said so, never guessed. */
export function describeBrowser(userAgent: string | null): string {
  if (!userAgent) return "Unknown browser";
  const browser = BROWSERS.find(([pattern]) => pattern.test(userAgent))?.[1];
  const system = SYSTEMS.find(([pattern]) => pattern.test(userAgent))?.[1];
  if (!browser) return system ? `A browser on ${system}` : userAgent.slice(0, 60);
  return system ? `${browser} on ${system}` : browser;
}

function ThisSession() {
  return (
    <span className="ml-2 rounded bg-emerald-100 px-1.5 py-0.5 text-xs font-medium text-emerald-800 dark:bg-emerald-900 dark:text-emerald-200">
      This session
    </span>
  );
}

function SignOut({ session }: { session: UserSession }) {
  return session.current ? null : (
    <ActionForm
      action={signOutSession}
      fields={{ session_id: session.id }}
      submitLabel="Sign out"
      className="inline-block"
    />
  );
}

/** Where this user is signed in, with a way to end any session but this one: a table, cards on a phone. */
export function SessionsSection({ sessions, className }: { sessions: UserSession[]; className: string }) {
  const others = sessions.filter((session) => !session.current).length;
  return (
    <section aria-labelledby="sessions-heading" className={className}>
      <h2 id="sessions-heading" className="text-base font-semibold">
        Sessions
      </h2>
      <p className="text-sm text-zinc-600 dark:text-zinc-400">
        Where you are signed in. Logging out ends a session; changing your password or turning two-factor
        sign-in on or off ends all the others.
      </p>
      <SimpleTable
        caption="Your sessions"
        headings={["Browser", "Address", "Signed in", "Last active", ""]}
        empty="No sessions."
        className="hidden shadow-none sm:block"
      >
        {sessions.map((session) => (
          <tr key={session.id}>
            <td className="px-4 py-3">
              {describeBrowser(session.userAgent)}
              {session.current ? <ThisSession /> : null}
            </td>
            <td className="px-4 py-3 font-mono text-xs">{session.ip}</td>
            <td className="px-4 py-3 whitespace-nowrap">
              <RelativeTime value={session.createdAt} />
            </td>
            <td className="px-4 py-3 whitespace-nowrap">
              {session.current ? "Now" : <RelativeTime value={session.lastUsedAt} />}
            </td>
            <td className="px-4 py-3 text-right">
              <SignOut session={session} />
            </td>
          </tr>
        ))}
      </SimpleTable>
      <CardList label="Your sessions" empty="No sessions.">
        {sessions.map((session) => (
          <Card key={session.id}>
            <p className="font-medium">
              {describeBrowser(session.userAgent)}
              {session.current ? <ThisSession /> : null}
            </p>
            <p className="break-all font-mono text-xs">{session.ip}</p>
            <p className="text-xs text-zinc-600 dark:text-zinc-400">
              Signed in <RelativeTime value={session.createdAt} /> · last active{" "}
              {session.current ? "now" : <RelativeTime value={session.lastUsedAt} />}
            </p>
            <SignOut session={session} />
          </Card>
        ))}
      </CardList>
      {/* Kept mounted when it has nothing left to do, so its success toast is still shown. */}
      <ActionForm
        action={signOutOtherSessions}
        fields={{}}
        submitLabel="Sign out of all other sessions"
        className={others > 0 ? "" : "hidden"}
      />
      {others > 0 ? null : (
        <p className="text-sm text-zinc-600 dark:text-zinc-400">You are signed in nowhere else.</p>
      )}
    </section>
  );
}
