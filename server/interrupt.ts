/**
 * Interruptions of a long command (`load`, `harvest`, `dump`, the
 * rebuilds): SIGINT or SIGTERM asks the work to stop at its next safe point
 * (after the batch or page being written), so it can roll back or keep what
 * it committed, close the store and say so in one line. A second signal
 * ends the process at once, as a person pressing Ctrl-C twice expects.
 *
 * The exit status is the shell's for a death by that signal (128 + its
 * number: 130 for SIGINT, 143 for SIGTERM), so a script or a unit manager
 * sees an interruption, not a failure of the work.
 */

/** The signals that interrupt a command. */
export type InterruptSignal = 'SIGINT' | 'SIGTERM';

/** The exit status of a command interrupted by `signal` (128 + the signal's number). */
export function interruptedStatus(signal: InterruptSignal): number {
  return signal === 'SIGINT' ? 130 : 143;
}

/** Thrown at a safe point once an interruption was asked for: the work stops there. */
export class InterruptedError extends Error {
  constructor(readonly signal: InterruptSignal) {
    super(`interrupted by ${signal}`);
    this.name = 'InterruptedError';
  }
}

/** Whether a command was asked to stop, and by which signal. */
export interface Interruption {
  /** Aborted once a signal came; its reason is the signal's name. */
  readonly signal: AbortSignal;
  /** The signal received, if any. */
  received(): InterruptSignal | undefined;
  /** Throws {@link InterruptedError} when a signal came. */
  check(): void;
  /**
   * A safe point: lets the event loop turn once, then {@link check}s. A
   * signal is handed to the process only when the loop turns, and work that
   * runs on resolved promises over a synchronous driver (a load whose
   * reading thread is ahead of it, writing to SQLite) may never let it.
   */
  checkpoint(): Promise<void>;
  /** Stops listening (the process's default handling comes back). */
  dispose(): void;
}

/**
 * Listens for SIGINT and SIGTERM until `dispose`: the first asks the work
 * to stop at its next safe point, a second one exits at once with the
 * signal's status.
 *
 * @example const stop = watchInterrupts(); try { … stop.check(); … } finally { stop.dispose(); }
 */
export function watchInterrupts(proc: NodeJS.Process = process): Interruption {
  const controller = new AbortController();
  let received: InterruptSignal | undefined;
  const on = (signal: InterruptSignal) => () => {
    if (received !== undefined) proc.exit(interruptedStatus(received));
    received = signal;
    controller.abort(signal);
  };
  const onInt = on('SIGINT');
  const onTerm = on('SIGTERM');
  proc.on('SIGINT', onInt);
  proc.on('SIGTERM', onTerm);
  const check = (): void => {
    if (received !== undefined) throw new InterruptedError(received);
  };
  return {
    signal: controller.signal,
    received: () => received,
    check,
    async checkpoint() {
      await new Promise<void>((resolve) => setImmediate(resolve));
      check();
    },
    dispose() {
      proc.off('SIGINT', onInt);
      proc.off('SIGTERM', onTerm);
    },
  };
}
