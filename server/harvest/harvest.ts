/**
 * One harvest of one source: Identify, the source's sets, then
 * ListRecords per metadataPrefix and set, page by page. Every page is one
 * transaction through the write pipeline (`WriteStore.writeItems`), with
 * the list's checkpoint (lib/store.ts `HarvestBookkeeping`) in the same transaction,
 * so an interrupted run resumes after its last committed page and a page
 * is never half-written.
 *
 * - The first run of a list is a full harvest; later runs ask `from` the
 *   responseDate of the last complete run's first page, less one granule of
 *   the source's granularity (lib/harvest/timing.ts).
 * - `badResumptionToken` (tokens expire) restarts the list from the
 *   checkpoint's `from`; what was written is written again unchanged.
 * - A record that cannot be stored is refused alone (named by source, page
 *   and identifier) and the harvest goes on; a page that is not well-formed
 *   XML is asked for again, then the run stops, nothing of it written.
 * - Deleted records become tombstones; with `deleteMissing` (a full run),
 *   the source's items the run never saw become tombstones at its end.
 */
import { InterruptedError } from '../interrupt';
import type { FormatRegistry } from '../../lib/formats/registry';
import type { SourceConfig } from '../../lib/harvest/sources';
import { followed, tokenTrail } from '../../lib/harvest/tokens';
import { CLOCK_AHEAD_WARNING_SECONDS, granularityOf, harvestedUpTo, inGranularity, incrementalFrom } from '../../lib/harvest/timing';
import type { Refusal } from '../../lib/model/refusal';
import {
  RefusedError,
  type HarvestBookkeeping,
  type HarvestLocks,
  type HarvestState,
  type ItemInput,
  type ListKey,
  type PageCheckpoint,
  type SetInput,
  type OutcomeCounts,
  type TransactionalStore,
  type WriteResult,
  type WriteTransaction,
} from '../../lib/store';
import { HarvestError, OaiClient, type ClientOptions } from './client';
import { parseIdentify } from './identify';
import { harvestedSet, readPage, type ReadPage } from './page';
import { withOtherPrefixes } from './merge';
import { StatisticsSchedule } from '../store/statistics';

export { HarvestError };

/** What a harvest needs of an opened provider. */
export interface HarvestDeps {
  /** The store: its harvest state and locks, and transactions that keep a page's checkpoint with its items. */
  readonly store: TransactionalStore<WriteTransaction & HarvestBookkeeping> & HarvestState & HarvestLocks;
  readonly formats: FormatRegistry;
  /** The harvesting repository, named in the User-Agent. */
  readonly repository: { readonly name: string; readonly baseUrl: string };
  /** The store's clock, seconds. */
  readonly now?: () => number;
}

/** How to harvest. */
export interface HarvestOptions {
  /** Ask `from` this instead of the incremental `from`. */
  readonly from?: string;
  readonly until?: string;
  /** A full harvest; the source's items it never sees become tombstones. */
  readonly deleteMissing?: boolean;
  /** Client settings for tests (tiny backoffs, a recording sleep). */
  readonly client?: Partial<Pick<ClientOptions, 'backoffBaseMs' | 'backoffMaxMs' | 'retryAfterCapMs' | 'sleep' | 'random' | 'maxPageBytes'>>;
  readonly onRefusal?: (r: Refusal) => void;
  readonly onWarning?: (message: string) => void;
  /** After every committed page. */
  readonly onPage?: (p: PageEvent) => void;
  readonly onRetry?: (source: string, reason: string, waitMs: number) => void;
  /**
   * Checked once the source's lock is held: false ends the run at once
   * (`skipped`), e.g. when another process harvested the source while this
   * one waited for its turn.
   */
  readonly stillDue?: () => Promise<boolean>;
  /** Called between pages; a test (or a stopping server) stops a run there by throwing. */
  readonly betweenPages?: () => void | Promise<void>;
}

/** A committed page, for progress and metrics. */
export interface PageEvent {
  readonly source: string;
  readonly prefix: string;
  readonly set: string;
  readonly page: number;
  readonly records: number;
  readonly refused: number;
  readonly completeListSize?: number;
  /** Records of the list so far in this run. */
  readonly listRecords: number;
}

/** What one source's harvest did. */
export interface HarvestSummary extends OutcomeCounts {
  readonly source: string;
  /** Whether every list was harvested to its end. */
  completed: boolean;
  /** Another process was harvesting the source: nothing was done. */
  locked: boolean;
  /** The source was no longer due once its lock was held: nothing was done. */
  skipped?: boolean;
  pages: number;
  records: number;
  refused: number;
  retries: number;
  /** Lists resumed from a checkpoint, and lists restarted after badResumptionToken. */
  resumed: number;
  restarted: number;
  /** Why the run stopped, when it did. */
  error?: string;
  lists: { prefix: string; set: string; from: string | null; records: number; completed: boolean }[];
}

/**
 * Pages of a ListSets read before the run stops asking for more: the sets of
 * a source are a few thousand at most, and a source answering a new token
 * for ever would otherwise keep the run (and its memory) growing.
 */
const MAX_LIST_SETS_PAGES = 1000;

/**
 * Harvests one source once (under its lock). Never throws for the source's
 * faults: they end the run with `error` in the summary and in the state.
 *
 * @example const s = await harvestSource(deps, { name: 'arxiv', baseUrl, prefixes: ['oai_dc'], sets: [], politeness });
 */
export async function harvestSource(deps: HarvestDeps, source: SourceConfig, options: HarvestOptions = {}): Promise<HarvestSummary> {
  const summary: HarvestSummary = {
    source: source.name,
    completed: false,
    locked: false,
    pages: 0,
    records: 0,
    inserted: 0,
    updated: 0,
    unchanged: 0,
    deleted: 0,
    superseded: 0,
    refused: 0,
    retries: 0,
    resumed: 0,
    restarted: 0,
    lists: [],
  };
  const lock = await deps.store.acquireHarvestLock(source.name);
  if (!lock) {
    summary.locked = true;
    return summary;
  }
  try {
    if (options.stillDue && !(await options.stillDue())) {
      summary.skipped = true;
      return summary;
    }
    await new SourceRun(deps, source, options, summary).run();
  } catch (err) {
    if (!(err instanceof HarvestError)) throw err;
    summary.error = err.message;
  } finally {
    await lock.release();
  }
  return summary;
}

class SourceRun {
  private readonly client: OaiClient;
  private readonly now: () => number;
  /** When the planner next hears how many items this run has written. */
  private readonly statistics = new StatisticsSchedule();

  constructor(
    private readonly deps: HarvestDeps,
    private readonly source: SourceConfig,
    private readonly options: HarvestOptions,
    private readonly summary: HarvestSummary,
  ) {
    this.now = deps.now ?? (() => Math.floor(Date.now() / 1000));
    const p = source.politeness;
    this.client = new OaiClient({
      source: source.name,
      baseUrl: source.baseUrl,
      userAgent: `oai-steward/0.1 (harvester of ${deps.repository.name}; ${deps.repository.baseUrl})`,
      timeoutMs: p.timeoutMs,
      retries: p.retries,
      delayMs: p.delayMs,
      ...options.client,
      onRetry: (reason, ms) => {
        summary.retries++;
        options.onRetry?.(source.name, reason, ms);
      },
    });
  }

  async run(): Promise<void> {
    const { source } = this;
    const lists = source.prefixes.flatMap((prefix) => (source.sets.length === 0 ? [{ prefix, set: '' }] : source.sets.map((set) => ({ prefix, set }))));
    let identify;
    try {
      identify = parseIdentify((await this.client.get({ verb: 'Identify' })).body);
    } catch (err) {
      const message = err instanceof HarvestError ? err.message : `${source.name}: Identify: ${(err as Error).message}`;
      for (const l of lists) await this.deps.store.recordHarvestError({ source: source.name, ...l }, message, this.now());
      throw new HarvestError(message);
    }
    const granularity = granularityOf(identify.granularity);
    await this.declareSets(identify.repositoryName);
    const states = await this.deps.store.harvestStates(source.name);
    if (this.options.deleteMissing) {
      // A --delete-missing run resumes only lists an earlier --delete-missing run began (their ids are
      // in harvest_seen); any other list under way starts again, so no harvested id goes unrecorded.
      for (const s of states) if (s.token !== null && !s.runMarksSeen) await this.deps.store.dropCheckpoint({ source: s.source, prefix: s.prefix, set: s.set });
      if (!states.some((s) => s.token !== null && s.runMarksSeen)) await this.deps.store.clearSeen(source.name);
    }
    for (const l of lists) {
      try {
        await this.list(l.prefix, l.set, granularity);
      } catch (err) {
        const message = err instanceof HarvestError ? err.message : `${source.name}: ${(err as Error).message}`;
        // An interruption is no failure of the list: its checkpoint says where the next run resumes.
        if (!(err instanceof InterruptedError)) await this.deps.store.recordHarvestError({ source: source.name, ...l }, message, this.now());
        // Not the source's fault (the database, a stop): the caller's to handle; the checkpoint stays.
        throw err;
      }
    }
    if (this.options.deleteMissing) await this.deleteMissing();
    this.summary.completed = true;
  }

  /** Declares `source:NAME` and, from the source's ListSets, its sets under `source:NAME:`; a source without sets declares none. */
  private async declareSets(repositoryName: string | undefined): Promise<void> {
    const name = this.source.name;
    const own: SetInput[] = [
      { spec: 'source', name: 'Harvested sources' },
      { spec: harvestedSet(name), name: repositoryName !== undefined && repositoryName !== '' ? repositoryName : name },
    ];
    const sets: SetInput[] = [...own];
    let args: Record<string, string> = { verb: 'ListSets' };
    const trail = tokenTrail();
    for (let page = 1; ; page++) {
      const answer = await this.client.get(args);
      const read = await readPage(answer.body, this.context('ListSets', page));
      if (read.fault) {
        // noSetHierarchy: a repository without sets (OAI-PMH 2.0 section 3.6); any other fault leaves the names as specs.
        if (read.fault.code !== 'noSetHierarchy')
          this.options.onWarning?.(`${name}: ListSets page ${page}: ${read.fault.reason}; its sets are named by their spec`);
        break;
      }
      sets.push(...read.sets);
      if (read.token === undefined || read.token === '') break;
      const before = followed(trail, read.token, page);
      if (before !== null || page >= MAX_LIST_SETS_PAGES) {
        const why =
          before !== null ? `answered a resumptionToken it answered on page ${before}, so its list runs in a circle` : `still had more after ${page} pages`;
        this.options.onWarning?.(`${name}: ListSets page ${page}: the source ${why}; the sets read so far are declared, the others are named by their spec`);
        break;
      }
      args = { verb: 'ListSets', resumptionToken: read.token };
    }
    for (const s of sets) {
      try {
        await this.deps.store.putSets([s]);
      } catch (err) {
        this.options.onWarning?.(`${name}: set ${JSON.stringify(s.spec)} not declared: ${(err as Error).message}`);
      }
    }
  }

  private context(prefix: string, page: number): Parameters<typeof readPage>[1] {
    return { source: this.source.name, sourceBaseUrl: this.source.baseUrl, prefix, page, formats: this.deps.formats };
  }

  /** Harvests one list to its end, a transaction a page. */
  private async list(prefix: string, set: string, granularity: 'day' | 'second'): Promise<void> {
    const key: ListKey = { source: this.source.name, prefix, set };
    const state = await this.deps.store.harvestList(key, this.source.baseUrl);
    const label = `${this.source.name} ListRecords ${prefix}${set === '' ? '' : ` set ${set}`}`;
    let from: string | null;
    let until: string | null;
    let runResponseDate: string | null = null;
    let token: string | null = null;
    let first = true;
    const resume = state.token !== null && (!this.options.deleteMissing || state.runMarksSeen);
    // A list records its ids when this run deletes what it misses, or when it continues a run that will.
    const marksSeen = this.options.deleteMissing === true || (resume && state.runMarksSeen);
    if (resume) {
      // An interrupted run: go on after its last committed page.
      if (this.options.from !== undefined || this.options.until !== undefined)
        this.options.onWarning?.(`${label}: an interrupted run resumes first; --from and --until apply from the next run`);
      ({ token, runResponseDate } = state);
      from = state.checkpointFrom;
      until = state.checkpointUntil;
      first = false;
      this.summary.resumed++;
    } else {
      const asked =
        this.options.from ?? (this.options.deleteMissing || state.lastResponseDate === null ? null : incrementalFrom(state.lastResponseDate, granularity));
      from = asked === null ? null : inGranularity(asked, granularity);
      until = this.options.until === undefined ? null : inGranularity(this.options.until, granularity);
      if (asked !== null && from === null) throw new HarvestError(`${label}: --from ${JSON.stringify(asked)} is not YYYY-MM-DD or YYYY-MM-DDThh:mm:ssZ`);
      if (this.options.until !== undefined && until === null)
        throw new HarvestError(`${label}: --until ${JSON.stringify(this.options.until)} is not YYYY-MM-DD or YYYY-MM-DDThh:mm:ssZ`);
    }
    const fresh = (): Record<string, string> => ({
      verb: 'ListRecords',
      metadataPrefix: prefix,
      ...(set !== '' && { set }),
      ...(from !== null && { from }),
      ...(until !== null && { until }),
    });
    const listSummary = { prefix, set, from, records: 0, completed: false };
    this.summary.lists.push(listSummary);
    let args = token !== null ? { verb: 'ListRecords', resumptionToken: token } : fresh();
    let restarts = 0;
    let trail = tokenTrail();
    if (token !== null) followed(trail, token, resume ? state.runPages : 0);
    for (let page = resume ? state.runPages + 1 : 1; ; page++) {
      const read = await this.fetchPage(args, prefix, page, label);
      if (read.fault?.code === 'badResumptionToken' && args.resumptionToken !== undefined && restarts < this.source.politeness.retries + 1) {
        // Tokens expire: start the list again from the checkpoint's from (OAI-PMH 2.0 section 3.5).
        restarts++;
        this.summary.restarted++;
        this.options.onWarning?.(
          `${label}: the source refused its resumption token (badResumptionToken); the list starts again from ${from ?? 'the beginning'}`,
        );
        await this.deps.store.dropCheckpoint(key);
        args = fresh();
        first = true;
        // The list is asked for again from its start: its tokens come again, and that is no circle.
        trail = tokenTrail();
        continue;
      }
      if (read.fault) throw new HarvestError(`${label} page ${page}: ${read.fault.reason}`);
      if (first) runResponseDate = this.upTo(read.responseDate, label);
      const next = read.token !== undefined && read.token !== '' ? read.token : null;
      const before = next === null ? null : followed(trail, next, page);
      if (before !== null) {
        throw new HarvestError(
          `${label} page ${page}: the source answered a resumptionToken it answered on page ${before} of this run, so its list runs in a circle; the run stops here, every page before it written`,
        );
      }
      const written = await this.writePage(read, key, { token: next, from, until, runResponseDate, first, marksSeen, now: this.now() });
      first = false;
      listSummary.records += read.records;
      this.options.onPage?.({
        source: key.source,
        prefix,
        set,
        page,
        records: read.records,
        refused: written,
        listRecords: listSummary.records,
        ...(read.completeListSize !== undefined && { completeListSize: read.completeListSize }),
      });
      if (next === null) break;
      await this.options.betweenPages?.();
      args = { verb: 'ListRecords', resumptionToken: next };
    }
    listSummary.completed = true;
  }

  /**
   * The time this list is harvested up to: the source's responseDate, never
   * later than this side's clock (lib/harvest/timing.ts `harvestedUpTo`); a
   * source clock running ahead is said in the run's warnings.
   */
  private upTo(responseDate: string | undefined, label: string): string | null {
    if (responseDate === undefined) return null;
    const upTo = harvestedUpTo(responseDate, this.now());
    if (upTo === null) return responseDate;
    if (upTo.aheadSeconds > CLOCK_AHEAD_WARNING_SECONDS) {
      this.options.onWarning?.(
        `${label}: the source's clock runs ${upTo.aheadSeconds} s ahead of this one (responseDate ${responseDate.trim()}); the next run asks from this side's time, ${upTo.at}, less one granule`,
      );
    }
    return upTo.at;
  }

  /** GETs a page and reads it; a page that is not well-formed is asked for again, then stops the run. */
  private async fetchPage(args: Record<string, string>, prefix: string, page: number, label: string): Promise<ReadPage> {
    for (let attempt = 1; ; attempt++) {
      const answer = await this.client.get(args);
      const read = await readPage(answer.body, this.context(prefix, page));
      if (!read.fault?.malformed) return read;
      if (attempt > this.source.politeness.retries) {
        throw new HarvestError(
          `${label} page ${page} (${answer.url}) is not an OAI-PMH response after ${attempt} attempts (${read.fault.reason}); the run stops here, nothing of this page was written, and the next run resumes at it`,
        );
      }
      await this.client.pause(attempt, `page ${page} is not well-formed XML`);
    }
  }

  /**
   * Writes a page's items and its checkpoint in one transaction; records
   * refused by the pipeline are left out and the rest written (each record
   * is refused alone). Returns how many records were refused.
   */
  private async writePage(read: ReadPage, key: ListKey, c: Omit<PageCheckpoint, 'records' | 'refused'>): Promise<number> {
    const refusals = [...read.refusals];
    const others = this.source.prefixes.filter((p) => p !== key.prefix);
    const results = await this.deps.store.transaction(async (tx) => {
      let pending = await withOtherPrefixes(tx, newestPerId(read.items), others, key.prefix !== this.source.prefixes[0]);
      let out: readonly WriteResult[] = [];
      while (pending.length > 0) {
        try {
          out = await tx.writeItems(pending);
          // A harvest into an empty or small store grows its tables page by page (../store/statistics.ts).
          if (this.statistics.due(pending.length)) await tx.refreshStatistics();
          break;
        } catch (err) {
          if (!(err instanceof RefusedError)) throw err;
          refusals.push(...err.refusals);
          const refused = new Set(err.refusals.map((r) => r.internalId));
          pending = pending.filter((i) => !refused.has(i.internalId));
        }
      }
      // Refused records are at the source too: --delete-missing keeps what the hub has of them.
      const seen = [...pending.map((i) => i.internalId), ...refusals.map((r) => r.internalId).filter((id) => id !== '')];
      if (c.marksSeen) await tx.markSeen(key.source, [...new Set(seen)]);
      const refusedRecords = new Set(refusals.map((r) => `${r.internalId}\u0000${r.source ?? ''}`)).size;
      await tx.checkpoint(key, { ...c, records: read.records, refused: refusedRecords });
      return { out, refusedRecords };
    });
    for (const r of refusals) this.options.onRefusal?.(r);
    const s = this.summary;
    s.pages++;
    s.records += read.records;
    s.refused += results.refusedRecords;
    for (const r of results.out) s[r.outcome]++;
    return results.refusedRecords;
  }

  /** Tombstones for the source's live items this full run never harvested. */
  private async deleteMissing(): Promise<void> {
    let after = '';
    for (;;) {
      const ids = await this.deps.store.unseenItems(this.source.name, after, 500);
      if (ids.length === 0) break;
      for (const r of await this.deps.store.deleteItems(ids, { harvestedFrom: this.source.name })) this.summary[r.outcome]++;
      after = ids[ids.length - 1] as string;
    }
    await this.deps.store.clearSeen(this.source.name);
  }
}

/** A page naming one record twice keeps its newest version (a later one wins a tie). */
function newestPerId(items: readonly ItemInput[]): ItemInput[] {
  const byId = new Map<string, ItemInput>();
  for (const i of items) {
    const had = byId.get(i.internalId);
    if (!had || (i.datestamp ?? 0) >= (had.datestamp ?? 0)) {
      byId.delete(i.internalId);
      byId.set(i.internalId, i);
    }
  }
  return [...byId.values()];
}
