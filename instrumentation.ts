// Next.js calls register() once per server process before it serves requests: the platform boots here.
export async function register() {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { startPlatform, stopPlatformOnSignals } = await import("./lib/platform-services");
  const { inlineBackgroundServices } = await import("./lib/background-services");
  await startPlatform(inlineBackgroundServices());
  stopPlatformOnSignals();
}
