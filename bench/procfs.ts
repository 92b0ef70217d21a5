/**
 * What the benchmark reads about processes and the machine from Linux's
 * /proc: the processes of a server, their resident memory and CPU time, and
 * how busy the whole machine was. Each reading is 0 where /proc cannot be
 * read (not Linux, or the process has gone), never an error.
 */
import fs from 'node:fs';

/** The server process and, for a cluster, its workers (children of the primary). */
export function serverPids(root: number): number[] {
  const pids = [root];
  for (const d of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${d}/stat`, 'utf8');
      // Field 4 (ppid) comes after the parenthesized command name.
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid === root) pids.push(Number(d));
    } catch {
      // the process went away
    }
  }
  return pids;
}

/** A field of /proc/<pid>/status in MB (VmRSS, VmHWM), or 0 when unreadable (not Linux, process gone). */
function procMb(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  try {
    const m = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) / 1024 : 0;
  } catch {
    return 0;
  }
}

/** Peak resident memory of a server over a phase: the largest process, and all of them together. */
export interface RssPeak {
  readonly peakMb: number;
  readonly totalMb: number;
  readonly pids: number;
}

/**
 * Samples the server processes' RSS every 250 ms while a phase runs;
 * VmHWM (the kernel's peak since the process started) wins where available.
 *
 * @example const rss = rssSampler(server.pid); await harvest(); rss.stop().peakMb
 */
export function rssSampler(root: number): { stop(): RssPeak } {
  const peak = new Map<number, number>();
  // The processes are found once (the cluster has forked its workers by the time the server answers):
  // scanning all of /proc four times a second took CPU from the server being measured.
  const pids = serverPids(root);
  const sample = (field: 'VmRSS' | 'VmHWM'): void => {
    for (const pid of pids) peak.set(pid, Math.max(peak.get(pid) ?? 0, procMb(pid, field)));
  };
  sample('VmRSS');
  const timer = setInterval(() => sample('VmRSS'), 250);
  return {
    stop() {
      clearInterval(timer);
      sample('VmHWM');
      const values = [...peak.values()];
      return { peakMb: Math.max(0, ...values), totalMb: values.reduce((a, b) => a + b, 0), pids: values.length };
    },
  };
}

/** Cores busy on average over a phase. */
export interface CoresUsed {
  readonly client: number;
  readonly servers: number;
  /** Everything else on the machine (other programs, the kernel's own threads). */
  readonly other: number;
}

/** CPU seconds the whole machine has been busy so far (every state of /proc/stat's `cpu` line but idle and iowait); 0 where unreadable. */
export function machineBusySeconds(): number {
  try {
    const f = (fs.readFileSync('/proc/stat', 'utf8').split('\n')[0] ?? '').trim().split(/\s+/).slice(1).map(Number);
    const total = f.slice(0, 8).reduce((a, b) => a + b, 0);
    return (total - (f[3] ?? 0) - (f[4] ?? 0)) / 100;
  } catch {
    return 0;
  }
}

/** CPU seconds (user + system) the processes have used so far, from /proc/<pid>/stat at Linux's USER_HZ of 100; 0 where unreadable. */
export function cpuSeconds(pids: readonly number[]): number {
  let ticks = 0;
  for (const pid of pids) {
    try {
      const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
      // Fields 14 and 15 (utime, stime), counted after the parenthesized command name (field 2).
      const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      ticks += Number(f[11]) + Number(f[12]);
    } catch {
      // not Linux, or the process went away
    }
  }
  return ticks / 100;
}
