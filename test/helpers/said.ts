/**
 * Waiting for what a running process says, bounded: how a test orders itself
 * after a step another process has taken.
 */

/**
 * Resolves once `read()` matches `pattern`, checking on each `tick`; rejects after `bound` ms.
 *
 * @example await whenSaid(() => stderr, /waiting/, (tick) => child.stderr?.on('data', tick), 60_000);
 */
export function whenSaid(read: () => string, pattern: RegExp, subscribe: (tick: () => void) => void, bound: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`not said within ${bound} ms: ${pattern}; said: ${read()}`)), bound);
    const tick = (): void => {
      if (!pattern.test(read())) return;
      clearTimeout(timer);
      resolve();
    };
    subscribe(tick);
    tick();
  });
}
