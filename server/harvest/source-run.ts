/**
 * One run of a source (./harvest.ts `harvestSource` starts it): its lists
 * harvested page by page from their checkpoints, each page judged, written in
 * parts and recorded; its sets declared and retired; its warnings and counts.
 */
import { countResult } from '../../lib/outcome-counts';
import { InterruptedError } from '../interrupt';
import { limitsOf, sourceSetDescription, type HarvestLimits, type SourceConfig } from '../../lib/harvest/sources';
import { followed, tokenTrail } from '../../lib/harvest/tokens';
import { CLOCK_AHEAD_WARNING_SECONDS, granularityOf, harvestedUpTo, inGranularity, incrementalFrom } from '../../lib/harvest/timing';
import { type ListKey, type PageCheckpoint, type SetInput } from '../../lib/store';
import { shownText } from '../../lib/shown-text';
import { RECORD_DEADLINE_MS, withDeadline } from '../runs';
import { AnswerTooLarge, HarvestError, OaiClient } from './client';
import { parseIdentify } from './identify';
import { harvestedSet, readPage, type ReadPage } from './page';
import { withStoredAbout } from './merge';
import { StatisticsSchedule } from '../store/statistics';
import { SourceSets } from './source-sets';
import { declareInBatches } from '../../lib/sets/declare';
import { HarvestDeps, HarvestInterrupted, HarvestOptions, HarvestSummary } from './harvest-types';
import { newestPerId, writeInParts } from './page-parts';

/**
 * Pages of a ListSets read before the run stops asking for more: the sets of
 * a source are a few thousand at most, and a source answering a new token
 * for ever would otherwise keep the run (and its memory) growing.
 */
const MAX_LIST_SETS_PAGES = 1000;

export class SourceRun {
  private readonly client: OaiClient;
  private readonly now: () => number;
  private readonly limits: HarvestLimits;
  private readonly clock: () => number;
  /** When the run began, on {@link clock}. */
  private readonly began: number;
  /** Aborted when the run's time (`limits.time`) is over: every request and wait under way ends there. */
  private readonly end = new AbortController();
  private endTimer: NodeJS.Timeout | undefined;
  /** When the planner next hears how many items this run has written. */
  private readonly statistics = new StatisticsSchedule();
  /** The list page read last, which the refusals of its records are reported with. */
  page: number | null = null;
  /** The sets the source has, as far as this run can tell. */
  private readonly sets: SourceSets;

  constructor(
    private readonly deps: HarvestDeps,
    private readonly source: SourceConfig,
    private readonly options: HarvestOptions,
    private readonly summary: HarvestSummary,
  ) {
    this.now = deps.now ?? (() => Math.floor(Date.now() / 1000));
    this.limits = limitsOf(source);
    this.sets = new SourceSets(this.limits.sets);
    this.clock = options.clock ?? (() => performance.now());
    this.began = this.clock();
    const p = source.politeness;
    this.client = new OaiClient({
      source: source.name,
      baseUrl: source.baseUrl,
      userAgent: `oai-steward/0.1 (harvester of ${deps.repository.name}; ${deps.repository.baseUrl})`,
      timeoutMs: p.timeoutMs,
      retries: p.retries,
      delayMs: p.delayMs,
      maxPageBytes: this.limits.pageBytes,
      deadline: { remainingMs: () => this.remainingMs(), signal: this.end.signal },
      ...options.client,
      onRetry: (reason, ms) => {
        summary.retries++;
        options.onRetry?.(source.name, reason, ms);
      },
    });
  }

  /** Harvests the source's lists, within the run's time: at its end whatever is under way is ended, naming `limits.time`. */
  async run(): Promise<void> {
    this.armEnd();
    try {
      await this.lists();
    } finally {
      clearTimeout(this.endTimer);
    }
  }

  /** Milliseconds the run may still take (`limits.time`), on its clock. */
  private remainingMs(): number {
    return this.limits.seconds * 1000 - (this.clock() - this.began);
  }

  /**
   * Ends the run's requests and waits when its time is over. The timer is
   * real time while the bound is measured on the run's clock (a test moves
   * its own), so at the timer the clock is asked again; timers also cannot
   * wait past 2^31 - 1 ms, so a longer bound is waited for in steps.
   */
  private armEnd(): void {
    const left = this.remainingMs();
    if (left <= 0) {
      const l = this.limits.seconds;
      this.end.abort(
        new HarvestError(
          `${this.source.name}: the run has taken ${l} s, the longest one run of this source takes (limits.time: ${l} s); the request or wait under way is ended, every page before it written, and the next run resumes at the page it was reading`,
        ),
      );
      return;
    }
    this.endTimer = setTimeout(() => this.armEnd(), Math.min(left, 2 ** 31 - 1));
    this.endTimer.unref();
  }

  private async lists(): Promise<void> {
    const { source } = this;
    const lists = source.prefixes.flatMap((prefix) => (source.sets.length === 0 ? [{ prefix, set: '' }] : source.sets.map((set) => ({ prefix, set }))));
    let identify;
    try {
      identify = parseIdentify((await this.client.get({ verb: 'Identify' })).body);
    } catch (err) {
      const message = shownText(err instanceof HarvestError ? err.message : `${source.name}: Identify: ${(err as Error).message}`);
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
        const message = shownText(err instanceof HarvestError ? err.message : `${source.name}: ${(err as Error).message}`);
        // An interruption is no failure of the list: its checkpoint says where the next run resumes. A database
        // that failed may not take this either, nor answer soon: it never hides why the run stopped.
        if (!(err instanceof InterruptedError || err instanceof HarvestInterrupted))
          await withDeadline(this.deps.store.recordHarvestError({ source: source.name, ...l }, message, this.now()), RECORD_DEADLINE_MS, 'the store').catch(
            () => undefined,
          );
        // Not the source's fault (the database, a stop): the caller's to handle; the checkpoint stays.
        throw err;
      }
    }
    if (this.options.deleteMissing) await this.deleteMissing();
    await this.retireGoneSets();
    this.summary.completed = true;
  }

  /** Declares `source:NAME` and, from the source's ListSets, its sets under `source:NAME:`; a source without sets declares none. */
  private async declareSets(repositoryName: string | undefined): Promise<void> {
    const name = this.source.name;
    const own: SetInput[] = [
      { spec: 'source', name: 'Harvested sources' },
      {
        spec: harvestedSet(name),
        name: repositoryName !== undefined && repositoryName !== '' ? repositoryName : name,
        descriptions: [sourceSetDescription(this.source, repositoryName !== undefined && repositoryName !== '' ? repositoryName : name)],
      },
    ];
    await this.putSets(own);
    // Each page's sets are declared as it is read and let go: what the run holds of a ListSets is one page,
    // however long the list; `limits.sets` bounds how many a run declares (and the rows it adds).
    const bound = this.limits.sets;
    let declared = 0;
    let args: Record<string, string> = { verb: 'ListSets' };
    const trail = tokenTrail();
    for (let page = 1; ; page++) {
      let read: ReadPage;
      try {
        read = await this.client.read(args, (body) => readPage(body, this.context('ListSets', page)));
      } catch (err) {
        if (!(err instanceof AnswerTooLarge)) throw err;
        // The sets only name what the records say: their lists are harvested all the same.
        this.options.onWarning?.(
          `${name}: ListSets page ${page} (${err.url}) ${err.what}; the sets read so far are declared, the others are named by their spec`,
        );
        break;
      }
      if (read.fault) {
        // noSetHierarchy: a repository without sets (OAI-PMH 2.0 section 3.6); any other fault leaves the names as specs.
        if (read.fault.code !== 'noSetHierarchy')
          this.options.onWarning?.(`${name}: ListSets page ${page}: ${read.fault.reason}; its sets are named by their spec`);
        break;
      }
      const taken = read.sets.slice(0, bound - declared);
      await this.putSets(taken);
      this.sets.listed(taken.map((s) => s.spec));
      declared += taken.length;
      const more = read.token !== undefined && read.token !== '';
      if (taken.length < read.sets.length || (more && declared >= bound)) {
        this.options.onWarning?.(
          `${name}: ListSets page ${page}: the source named more than ${bound} sets, the most one run of this source declares (limits.sets: ${bound}); the sets read so far are declared, the others are named by their spec`,
        );
        break;
      }
      if (read.token === undefined || read.token === '') {
        this.sets.listEnded();
        break;
      }
      const before = followed(trail, read.token, page);
      if (before !== null || page >= MAX_LIST_SETS_PAGES) {
        const why =
          before !== null ? `answered a resumptionToken it answered on page ${before}, so its list runs in a circle` : `still had more after ${page} pages`;
        this.options.onWarning?.(`${name}: ListSets page ${page}: the source ${why}; the sets read so far are declared, the others are named by their spec`);
        break;
      }
      args = { verb: 'ListSets', resumptionToken: read.token };
    }
  }

  /** At the end of a whole run: the sets the source no longer has are retired, their members leaving them (./source-sets.ts). */
  private async retireGoneSets(): Promise<void> {
    const still = this.sets.stillHas();
    if (still === null) return;
    const r = await this.deps.store.retireGoneSourceSets(this.source.name, still);
    if (r.sets.length === 0) return;
    const shown = `${r.sets.slice(0, 3).join(', ')}${r.sets.length > 3 ? ', …' : ''}`;
    this.options.onWarning?.(`${this.source.name}: ${r.sets.length} sets the source no longer has are retired (${shown}); ${r.members} items left them`);
  }

  /** Declares sets a batch at a time (lib/sets/declare.ts): a set the store refuses is named in the run's warnings and the others are declared. */
  private async putSets(sets: readonly SetInput[]): Promise<void> {
    const name = this.source.name;
    await declareInBatches((part) => this.deps.store.putSets(part), sets, {
      dropped: (d) => this.options.onWarning?.(`${name}: ListSets: ${d}`, `${name}: ListSets: set descriptions dropped`),
      refused: (s, err) =>
        this.options.onWarning?.(`${name}: set ${JSON.stringify(s.spec)} not declared: ${(err as Error).message}`, `${name}: ListSets: sets not declared`),
    });
  }

  private context(prefix: string, page: number): Parameters<typeof readPage>[1] {
    return { source: this.source.name, sourceBaseUrl: this.source.baseUrl, prefix, page, formats: this.deps.formats, maxRecordBytes: this.limits.recordBytes };
  }

  /** Harvests one list to its end, a transaction a page. */
  private async list(prefix: string, set: string, granularity: 'day' | 'second'): Promise<void> {
    const key: ListKey = { source: this.source.name, prefix, set };
    const state = await this.deps.store.harvestList(key, this.source.baseUrl);
    const label = `${this.source.name} ListRecords ${prefix}${set === '' ? '' : ` set ${set}`}`;
    if (state.movedFrom !== undefined)
      this.options.onWarning?.(`${label}: harvested from ${state.movedFrom} until now, from ${this.source.baseUrl} from now on; the list starts afresh`);
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
    // The next page is asked for as soon as this one's token is read, and read while this one is written:
    // the source (for a local one, its process) works while this side writes. Requests still go one at a
    // time, in the order the tokens give. When the list ends before the page asked ahead is used (a fault,
    // a failed write, a stop between pages), the abort ends its request.
    const ahead = new AbortController();
    let asked: Promise<ReadPage> | null = null;
    try {
      for (let page = resume ? state.runPages + 1 : 1; ; page++) {
        // The run's limits are judged before each page is used, asked ahead or not.
        this.withinBounds(label, page);
        let read: ReadPage;
        if (asked !== null) {
          read = await asked;
          asked = null;
        } else {
          read = await this.fetchPage(args, prefix, page, label, ahead.signal);
        }
        this.page = page;
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
        // Not asked ahead when the run's limits would stop it before it is used (counting this page as written).
        if (next !== null && this.boundReached(this.summary.pages + 1, this.summary.records + read.records) === undefined) {
          asked = this.fetchPage({ verb: 'ListRecords', resumptionToken: next }, prefix, page + 1, label, ahead.signal);
          // Its failure is the next page's, met when the loop comes to it; until then it is no unhandled rejection.
          asked.catch(() => undefined);
          // The request goes out on a later tick, and a SQLite write holds the thread to its end: one turn of the
          // event loop first sends it, so the source answers during the write, not after it.
          await new Promise<void>((resolve) => setImmediate(resolve));
        }
        this.sets.named(read.items);
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
    } finally {
      if (asked !== null) ahead.abort(new HarvestError(`${label}: the list ended before the page asked ahead was read`));
    }
    listSummary.completed = true;
  }

  /**
   * Stops the run before asking for `page` when it has read the pages or
   * records, or taken the time, its source's limits allow: the page before
   * is committed with its token, so the next run resumes at this one.
   */
  private withinBounds(label: string, page: number): void {
    const why = this.boundReached(this.summary.pages, this.summary.records);
    if (why === undefined) return;
    throw new HarvestError(`${label} page ${page}: the run ${why}; it stops here, every page before it written, and the next run resumes at this page`);
  }

  /** The limit a run that has read `pages` pages and `records` records reaches now, if any. */
  private boundReached(pages: number, records: number): string | undefined {
    const l = this.limits;
    const seconds = Math.floor((this.clock() - this.began) / 1000);
    if (pages >= l.pages) return `has read ${pages} pages, the most one run of this source reads (limits.pages)`;
    if (records >= l.records) return `has read ${records} records, the most one run of this source reads (limits.records: ${l.records})`;
    if (seconds >= l.seconds) return `has taken ${seconds} s, the longest one run of this source takes (limits.time: ${l.seconds} s)`;
    return undefined;
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
  private async fetchPage(args: Record<string, string>, prefix: string, page: number, label: string, signal: AbortSignal): Promise<ReadPage> {
    for (let attempt = 1; ; attempt++) {
      let answer;
      try {
        answer = await this.client.read(args, async (body, url) => ({ url, read: await readPage(body, this.context(prefix, page)) }), signal);
      } catch (err) {
        if (!(err instanceof AnswerTooLarge)) throw err;
        throw new HarvestError(
          `${label} page ${page} (${err.url}) ${err.what}; the run stops here, nothing of this page was written, and the next run resumes at it`,
        );
      }
      const read = answer.read;
      if (!read.fault?.malformed) return read;
      if (attempt > this.source.politeness.retries) {
        throw new HarvestError(
          `${label} page ${page} (${answer.url}) is not an OAI-PMH response after ${attempt} attempts (${read.fault.reason}); the run stops here, nothing of this page was written, and the next run resumes at it`,
        );
      }
      await this.client.pause(attempt, `page ${page} is not well-formed XML`, undefined, signal, answer.url);
    }
  }

  /**
   * Writes a page's items and its checkpoint in one transaction; records
   * refused by the pipeline are left out and the rest written (each record
   * is refused alone). Returns how many records were refused.
   */
  private async writePage(read: ReadPage, key: ListKey, c: Omit<PageCheckpoint, 'records' | 'refused'>): Promise<number> {
    const refusals = [...read.refusals];
    const results = await this.deps.store.transaction(async (tx) => {
      const items = newestPerId(read.items);
      // A later prefix's list keeps the about containers the first one wrote (./merge.ts); given formats are kept by the decision.
      const pending = key.prefix === this.source.prefixes[0] ? items : await withStoredAbout(tx, items);
      // Each record is refused alone (lib/pipeline/partial.ts); a large page is written a part at a time, in its one transaction.
      const written = await writeInParts(tx, pending);
      refusals.push(...written.refusals);
      // A harvest into an empty or small store grows its tables page by page (../store/statistics.ts).
      if (written.written.length > 0 && this.statistics.due(written.written.length)) await tx.refreshStatistics();
      const out = written.results;
      // Refused records are at the source too: --delete-missing keeps what the hub has of them.
      const seen = [...written.written.map((i) => i.internalId), ...refusals.map((r) => r.internalId).filter((id) => id !== '')];
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
    for (const r of results.out) {
      countResult(s, r);
      // What was kept of a record without being served, or noticed of it, is said in the run's warnings.
      for (const n of r.notes ?? []) this.options.onWarning?.(n.text, `${this.source.name}: ${n.kind}`);
    }
    return results.refusedRecords;
  }

  /** Tombstones for the source's live items this full run never harvested. */
  private async deleteMissing(): Promise<void> {
    let after = '';
    for (;;) {
      const ids = await this.deps.store.unseenItems(this.source.name, after, 500);
      if (ids.length === 0) break;
      for (const r of await this.deps.store.deleteItems(ids, { harvestedFrom: this.source.name })) countResult(this.summary, r);
      after = ids[ids.length - 1] as string;
    }
    await this.deps.store.clearSeen(this.source.name);
  }
}
