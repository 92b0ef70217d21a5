/**
 * Progress of a load on standard error: on a terminal a one-line bar,
 * redrawn a few times a second (records/s, and the percentage and ETA when
 * the input size is known); otherwise a plain line every few seconds, which
 * reads well in a log.
 */

/** Where progress goes and how. */
export interface ProgressOptions {
  readonly stream: NodeJS.WritableStream & { isTTY?: boolean; columns?: number };
  /** Total bytes of the input, when known. */
  readonly totalBytes: number | null;
  /** Seconds between plain lines (not on a terminal). Default 5. */
  readonly interval?: number;
  /** Milliseconds since some epoch; defaults to the monotonic clock. */
  readonly now?: () => number;
}

/** A running progress display. */
export interface Progress {
  /** Reports the state; cheap to call for every record (it draws only when due). */
  update(records: number, bytesRead: number): void;
  /** Clears the bar (on a terminal) before the summary is printed. */
  finish(): void;
}

/**
 * Starts a progress display.
 *
 * @example const p = startProgress({ stream: process.stderr, totalBytes: 1e9 }); p.update(1000, 5e6); p.finish();
 */
export function startProgress(options: ProgressOptions): Progress {
  const now = options.now ?? (() => performance.now());
  const tty = options.stream.isTTY === true;
  const every = tty ? 200 : (options.interval ?? 5) * 1000;
  const started = now();
  let last = started;
  let drawn = false;

  const line = (records: number, bytes: number): string => {
    const secs = Math.max(0.001, (now() - started) / 1000);
    const rate = Math.round(records / secs);
    const total = options.totalBytes;
    const parts = [`${records} records`, `${rate} records/s`];
    if (total && total > 0) {
      const frac = Math.min(1, bytes / total);
      const eta = frac > 0 ? Math.max(0, Math.round(secs / frac - secs)) : null;
      parts.unshift(`${(frac * 100).toFixed(1)}%`);
      if (eta !== null) parts.push(`ETA ${formatDuration(eta)}`);
      if (tty) {
        const width = 24;
        const filled = Math.round(frac * width);
        parts.unshift(`[${'#'.repeat(filled)}${'-'.repeat(width - filled)}]`);
      }
    }
    return parts.join('  ');
  };

  return {
    update(records, bytes) {
      const t = now();
      if (t - last < every) return;
      last = t;
      if (tty) {
        const text = line(records, bytes).slice(0, Math.max(20, (options.stream.columns || 80) - 1));
        options.stream.write(`\r${text}\x1b[K`);
        drawn = true;
      } else {
        options.stream.write(`load: ${line(records, bytes)}\n`);
      }
    },
    finish() {
      if (tty && drawn) options.stream.write('\r\x1b[K');
    },
  };
}

/** `75` → `1m15s`; `3725` → `1h02m`. */
export function formatDuration(seconds: number): string {
  if (seconds < 60) return `${seconds}s`;
  if (seconds < 3600) return `${Math.floor(seconds / 60)}m${String(seconds % 60).padStart(2, '0')}s`;
  return `${Math.floor(seconds / 3600)}h${String(Math.floor((seconds % 3600) / 60)).padStart(2, '0')}m`;
}
