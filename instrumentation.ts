// Next.js calls register() once per server process before it serves requests: the platform boots here.
export async function register() {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { startPlatform } = await import("./lib/platform-services");
  await startPlatform();
}
