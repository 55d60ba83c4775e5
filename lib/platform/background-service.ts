/**
 * A background loop started with the process (the domains' services, listed in lib/worker/services.ts, and
 * the request log's writer); it returns its stop function. The runner is background-services.ts.
 */
export type BackgroundService = () => Promise<() => Promise<void>>;
