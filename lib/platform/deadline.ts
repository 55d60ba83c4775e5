/**
 * `work`, or `onTimeout()` if it has not settled within `ms`. The work itself goes on (a query already sent
 * cannot be called back); only the wait for it is bounded.
 */
export function withDeadline<T>(work: Promise<T>, ms: number, onTimeout: () => T): Promise<T> {
  return withExtendableDeadline(() => work, ms, onTimeout);
}

/** Moves a request's deadline to `ms` from now: for work that waits on a processor, not the database. */
export type ExtendDeadline = (ms: number) => void;

/**
 * withDeadline for work that may move its own deadline once it knows it must wait on something slower than the
 * database (a processor): `extend(ms)` restarts the timer at `ms`. One promise and one timer: it wraps every API
 * request, where an async function racing a second promise cost three promises more.
 */
export function withExtendableDeadline<T>(
  start: (extend: ExtendDeadline) => Promise<T>,
  ms: number,
  onTimeout: () => T,
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    let timer = setTimeout(() => resolve(onTimeout()), ms);
    const extend: ExtendDeadline = (more) => {
      clearTimeout(timer);
      timer = setTimeout(() => resolve(onTimeout()), more);
    };
    start(extend).then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors
        reject(error);
      },
    );
  });
}
