import { memberForRoute } from "@/app/_lib/session";
import { getDb } from "@/db/client";
import { liveVersion, parseLiveScope } from "@/lib/events/live-version";

/** `GET /dashboard/live?scope=…`: what a self-updating page polls (components/live-updates.tsx). */
export async function GET(request: Request): Promise<Response> {
  const member = await memberForRoute();
  if (!member) return Response.json({ message: "Unauthenticated." }, { status: 401 });
  const scope = parseLiveScope(new URL(request.url).searchParams.get("scope"));
  if (!scope) return Response.json({ message: "The scope is invalid." }, { status: 422 });
  // The primary: a replica a moment behind would report the change the page was just rendered with as new.
  const version = await liveVersion(getDb(), member.merchantId, scope);
  return Response.json({ version }, { headers: { "Cache-Control": "no-store" } });
}
