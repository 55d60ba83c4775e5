/**
 * A background loop's pause: resolves after `ms`, or at once when `wake` is called (a notification, a
 * stop). `wake` stays callable after the pause ended, doing nothing.
 */
export function pause(ms: number, onWake: (wake: () => void) => void): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    onWake(() => {
      clearTimeout(timer);
      resolve();
    });
  });
}
