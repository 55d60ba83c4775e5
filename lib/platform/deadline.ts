/**
 * `work`, or `onTimeout()` if it has not settled within `ms`. The work itself goes on (a query already sent
 * cannot be called back); only the wait for it is bounded.
 */
export async function withDeadline<T>(work: Promise<T>, ms: number, onTimeout: () => T): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<T>((resolve) => (timer = setTimeout(() => resolve(onTimeout()), ms)));
  try {
    return await Promise.race([work, timedOut]);
  } finally {
    clearTimeout(timer);
  }
}
