/**
 * Progress lines of the benchmark scripts. On a terminal a line is rewritten
 * in place (carriage return); anywhere else (a file, a pipe, CI) an update
 * is a line of its own ending with a newline, at most one every few seconds,
 * so logs stay readable.
 */

/** Off a terminal, the least time between two update lines (the closing line always shows). */
const QUIET_MS = 5000;

/** A progress line on a stream: `update` shows the latest state, `done` closes it. */
export interface Progress {
  update(text: string): void;
  done(text: string): void;
}

/**
 * Makes a progress line on `stream` (default standard error).
 *
 * @example
 * const p = progress();
 * p.update('loaded 50000'); p.done('loaded 100000');
 */
export function progress(stream: NodeJS.WriteStream = process.stderr): Progress {
  const tty = stream.isTTY === true;
  let last = Date.now();
  return {
    update(text) {
      if (tty) stream.write(`\r${text}`);
      else if (Date.now() - last >= QUIET_MS) {
        last = Date.now();
        stream.write(`${text}\n`);
      }
    },
    done(text) {
      stream.write(tty ? `\r${text}\n` : `${text}\n`);
    },
  };
}
