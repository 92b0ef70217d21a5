/**
 * A scheduled harvest in a process of its own: `serve`'s scheduler
 * (./scheduler.ts) starts one child process a run. The child opens the
 * store from the same configuration (../provider.ts `openProvider`, with a
 * connection pool of its own, never migrating: `serve` migrated it, and a
 * migration takes knex's migration lock, a write, which on SQLite would meet
 * the pages another source's child is writing) and runs ./harvest.ts
 * `harvestSource`, so
 * whatever a hostile source makes the harvester do (inflate a bomb, parse a
 * huge page, read records of 20,000 titles) takes the child's CPU and
 * memory, never the serving thread's. Its heap is capped (V8's
 * `--max-old-space-size`, `harvestMemory`): a child over it dies alone.
 *
 * Why a process rather than a worker thread: every harvested record is
 * checked against its format's XSD with libxmljs2, a native addon that is
 * not context-aware (it registers with `NODE_MODULE`), so it loads once per
 * process and never in a worker thread.
 *
 * The parent keeps what outlives a run: the source's lock (taken by the
 * parent's store, so a child that dies leaves no lock behind; the child's
 * store is told the lock is held), the metrics and the log. The child sends
 * every committed page, retry and warning as it happens, then how the run
 * ended. A `stop` message ends the run after the page under way (the next
 * run resumes after it); a parent that goes away ends the child at once,
 * its page under way rolled back with its transaction.
 */
import { fork } from 'node:child_process';
import pino from 'pino';
import type { Config } from '../config';
import { SERVER_NODE_FLAGS } from '../node-flags';
import { PRESETS, type SetDefinition, type SetDefinitions } from '../../lib/sets/rules';
import type { SourceConfig } from '../../lib/harvest/sources';
import type { HarvestLock } from '../../lib/store';
import { openProvider } from '../provider';
import { harvestSource } from './harvest';
import { HarvestInterrupted, type HarvestDeps, type HarvestSummary, type PageEvent } from './harvest-types';

/**
 * A configuration as it crosses to the child: set families (a function of
 * the record, lib/sets/rules.ts) cannot be sent, so each is sent by the name
 * of the ready-made set it came from and made again there.
 */
export type SentConfig = Omit<Config, 'sets'> & { readonly sets: { readonly all: readonly SentSet[]; readonly computed: readonly SentSet[] } };
type SentSet = Omit<SetDefinition, 'family'>;

/** What the parent sends: the run to make, then perhaps `stop`. */
type ToChild =
  | { readonly type: 'start'; readonly config: SentConfig; readonly source: SourceConfig; readonly repository: HarvestDeps['repository'] }
  | { readonly type: 'stop' };

/** What the child sends: progress as it happens, then how the run ended. */
type FromChild =
  | { readonly type: 'page'; readonly event: PageEvent }
  | { readonly type: 'retry'; readonly source: string }
  | { readonly type: 'warning'; readonly message: string }
  | { readonly type: 'end'; readonly outcome: Exclude<ChildOutcome, { kind: 'died' }> };

/** How a run in a child ended. */
export type ChildOutcome =
  /** The run ended (to the end of its lists, or stopped by the source's fault: `summary.error`). */
  | { readonly kind: 'done'; readonly summary: HarvestSummary }
  /** It was asked to stop, and stopped after a page. */
  | { readonly kind: 'stopped' }
  /**
   * Something other than the source failed (the database, the configuration);
   * `recorded` when the run began, so its report is in the store.
   */
  | { readonly kind: 'failed'; readonly message: string; readonly recorded: boolean }
  /** The child ended without saying how: out of memory, killed. */
  | { readonly kind: 'died'; readonly message: string };

/** What the parent hears of a run while it goes. */
export interface ChildHooks {
  onPage(e: PageEvent): void;
  onRetry(source: string): void;
  onWarning(message: string): void;
}

/** A run under way in a child process. */
export interface ChildHarvest {
  /** Resolves once the child has exited. */
  readonly outcome: Promise<ChildOutcome>;
  /** Asks the run to stop after the page under way. */
  stop(): void;
}

/** How long a child that said how its run ended may take to exit before it is killed. */
const EXIT_GRACE_MS = 5000;

/** The tail of the child's standard error kept to say why it died (V8 writes its out-of-memory report there). */
const STDERR_TAIL = 8192;

/**
 * Harvests `source` once in a child process whose heap is capped at
 * `memoryMb`. The caller holds the source's lock for the run (the child
 * never takes it) and has checked that the source is due.
 *
 * @example const run = harvestInChild(config, source, { memoryMb: 512, hooks }); const outcome = await run.outcome;
 */
export function harvestInChild(config: Config, source: SourceConfig, options: { readonly memoryMb: number; readonly hooks: ChildHooks }): ChildHarvest {
  // From the TypeScript sources (tests run through tsx) the child needs tsx's loader too.
  const fromSource = __filename.endsWith('.ts');
  const child = fork(__filename, [], {
    execArgv: [...(fromSource ? ['--require', require.resolve('tsx/cjs')] : []), ...SERVER_NODE_FLAGS, `--max-old-space-size=${options.memoryMb}`],
    env: { ...process.env, OAI_STEWARD_ROLE: CHILD_ROLE },
    stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
    serialization: 'advanced',
  });
  let stderr = '';
  child.stderr?.setEncoding('utf8');
  child.stderr?.on('data', (chunk: string) => {
    stderr = (stderr + chunk).slice(-STDERR_TAIL);
  });
  let ended: Exclude<ChildOutcome, { kind: 'died' }> | undefined;
  let stopAsked = false;
  const send = (m: ToChild): void => {
    if (child.connected) child.send(m, () => undefined);
  };
  child.on('message', (m: FromChild) => {
    if (m.type === 'page') options.hooks.onPage(m.event);
    else if (m.type === 'retry') options.hooks.onRetry(m.source);
    else if (m.type === 'warning') options.hooks.onWarning(m.message);
    else {
      ended = m.outcome;
      const kill = setTimeout(() => child.kill('SIGKILL'), EXIT_GRACE_MS);
      kill.unref();
      child.once('exit', () => clearTimeout(kill));
    }
  });
  const outcome = new Promise<ChildOutcome>((resolve) => {
    // 'error' comes when the child cannot be started or signalled; 'exit' (or 'close') follows when it ran.
    child.on('error', (err: Error) => {
      if (child.pid === undefined) resolve({ kind: 'died', message: `the harvest could not start: ${err.message}` });
    });
    child.on('close', (code: number | null, signal: NodeJS.Signals | null) => {
      resolve(ended ?? { kind: 'died', message: whyDied(code, signal, stderr, options.memoryMb) });
    });
  });
  try {
    child.send({ type: 'start', config: sendable(config), source, repository: { name: config.repositoryName, baseUrl: config.baseUrl } }, () => undefined);
  } catch (err) {
    // What cannot be sent (V8's serializer refuses it at once) ends the child before it starts.
    ended = { kind: 'failed', message: `the run could not be handed to its process: ${err instanceof Error ? err.message : String(err)}`, recorded: false };
    child.kill('SIGKILL');
  }
  return {
    outcome,
    stop() {
      if (stopAsked) return;
      stopAsked = true;
      send({ type: 'stop' });
    },
  };
}

/** Why a child that said nothing of its run's end is gone, in a few words. */
function whyDied(code: number | null, signal: NodeJS.Signals | null, stderr: string, memoryMb: number): string {
  if (/heap out of memory|heap limit/i.test(stderr)) return `it ran out of memory (harvestMemory: ${memoryMb} MiB)`;
  if (signal !== null) return `its process was killed (${signal})`;
  // An uncaught error is printed with its stack and Node's version after it: name the error, not the version.
  const lines = stderr.split('\n').map((l) => l.trim());
  const said = lines.find((l) => /^[A-Za-z]*Error\b/.test(l)) ?? lines.filter((l) => l !== '').pop();
  return `its process exited with status ${code ?? 'unknown'}${said !== undefined ? `: ${said.slice(0, 300)}` : ''}`;
}

/**
 * The configuration as it can cross to the child (see {@link SentConfig}),
 * each set one object as in `config` (a set is in `all` and in `computed`).
 *
 * @example child.send({ type: 'start', config: sendable(config), … })
 */
export function sendable(config: Config): SentConfig {
  const sent = new Map<SetDefinition, SentSet>();
  const one = (d: SetDefinition): SentSet => {
    let s = sent.get(d);
    if (!s) {
      const { family: _family, ...rest } = d;
      sent.set(d, (s = rest));
    }
    return s;
  };
  return { ...config, sets: { all: config.sets.all.map(one), computed: config.sets.computed.map(one) } };
}

/**
 * The configuration the parent sent ({@link sendable}), with each set family
 * made again from its ready-made set.
 *
 * @example const config = received(message.config);
 */
export function received(config: SentConfig): Config {
  const made = new Map<SentSet, SetDefinition>();
  const one = (s: SentSet): SetDefinition => {
    let d = made.get(s);
    if (!d) {
      const family = s.preset !== undefined ? PRESETS[s.preset]?.family : undefined;
      made.set(s, (d = family ? { ...s, family } : s));
    }
    return d;
  };
  const sets: SetDefinitions = { all: config.sets.all.map(one), computed: config.sets.computed.map(one) };
  return Object.freeze({ ...config, sets });
}

// ------------------------------------------------------------------ the child's side

/** How the child knows it is one (the module is also loaded by the parent). */
const CHILD_ROLE = 'scheduled-harvest';

/** Thrown between pages once the parent asked the run to stop. */
class Stopping extends HarvestInterrupted {
  constructor() {
    super('the server is stopping');
  }
}

/**
 * A lock already held: the parent holds the source's lock for the run, so
 * the child's harvest must not take it again (on PostgreSQL its connection
 * is another session, which the parent's lock would keep out).
 */
function heldByParent<S extends HarvestDeps['store']>(store: S): S {
  const held: HarvestLock = { release: async () => undefined };
  return new Proxy(store, {
    get(target, prop) {
      if (prop === 'acquireHarvestLock') return async () => held;
      const v = Reflect.get(target, prop, target) as unknown;
      return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v;
    },
  });
}

/** The child's run: waits for `start`, harvests, says how it ended and exits. */
async function runChild(): Promise<void> {
  const say = (m: FromChild): Promise<void> =>
    new Promise((resolve) => {
      if (!process.connected) return resolve();
      process.send?.(m, undefined, {}, () => resolve());
    });
  // A parent that goes away no longer holds the source's lock: the run ends at once.
  const orphaned = (): never => process.exit(1);
  process.on('disconnect', orphaned);
  let stopping = false;
  const start = await new Promise<Extract<ToChild, { type: 'start' }>>((resolve) => {
    process.on('message', (m: ToChild) => {
      if (m.type === 'start') resolve(m);
      else stopping = true;
    });
  });
  let outcome: Exclude<ChildOutcome, { kind: 'died' }>;
  // Whether harvestSource began: from then on it reports the run in the store, however it ends.
  let began = false;
  try {
    const provider = await openProvider(received(start.config), { logger: pino({ level: 'silent' }), create: false });
    try {
      if (stopping) throw new Stopping();
      began = true;
      const summary = await harvestSource({ store: heldByParent(provider.store), formats: provider.formats, repository: start.repository }, start.source, {
        onPage: (event) => void say({ type: 'page', event }),
        onRetry: (source) => void say({ type: 'retry', source }),
        onWarning: (message) => void say({ type: 'warning', message }),
        betweenPages: () => {
          if (stopping) throw new Stopping();
        },
      });
      outcome = { kind: 'done', summary };
    } finally {
      await provider.close();
    }
  } catch (err) {
    outcome = err instanceof Stopping ? { kind: 'stopped' } : { kind: 'failed', message: err instanceof Error ? err.message : String(err), recorded: began };
  }
  await say({ type: 'end', outcome });
  process.off('disconnect', orphaned);
  process.disconnect();
}

if (process.env.OAI_STEWARD_ROLE === CHILD_ROLE && process.send !== undefined) {
  delete process.env.OAI_STEWARD_ROLE;
  void runChild();
}
