/**
 * Speculative preparation of a harvest's next page. A harvester that follows
 * resumption tokens one request at a time leaves the server idle while the
 * answer travels and the client parses it, and leaves the client idle while
 * the server reads and renders the next page. The next request of such a
 * harvest is known as soon as a page is answered: the same verb with the
 * token just sent (a keyset cursor, so the page it names is deterministic).
 * So after answering a page the server prepares the next one (reads, renders)
 * while the client is busy, and answers it from here if that request arrives
 * soon; otherwise the prepared page is dropped.
 *
 * Consistency. A harvest's upper bound (`until`) is fixed by its first page
 * (lib/oai/verbs/list.ts), and an item changed or deleted later gets a newer
 * datestamp and leaves the harvest's range. A prepared page is the page as the
 * store held it when it was prepared, at most {@link PrefetchOptions.lifetimeMs}
 * before the request, instead of at the request: the only difference a
 * harvester can see is that an item changed or deleted by another process in
 * that window appears in its state from before the change (a fresh page would
 * leave it out, as it has moved beyond the harvest's range). It appears once
 * either way, and the harvest from this one's responseDate picks up the new
 * state. No item is lost or repeated: the page after a prepared one starts
 * after the prepared page's last key, exactly as after a fresh one. Every
 * write this process makes through its store clears every prepared page (and
 * one being prepared is never stored after it), so a process never serves a
 * page older than its own last write. The prepared answer's responseDate is
 * rewritten to the time it is served; its token's expirationDate was computed
 * when it was prepared, so it is up to the lifetime earlier than a fresh one.
 * A token that expired in between is refused as a fresh request would be
 * (the request then takes the ordinary path).
 *
 * Read-ahead. A page's query costs the database's time and a page's
 * rendering this process's, and the two need not wait for each other: as soon
 * as a page's rows are read its token (the keyset cursor after its last row)
 * is known, so the query of the page after it is issued then, before this page
 * is rendered and sent ({@link PagePrefetch.readAhead}), and the database
 * reads one page while this process renders the one before. The rows read
 * ahead become the next prepared page when the harvester asks for the page
 * before them ({@link PagePrefetch.prepare}). Rows read ahead follow the rules
 * above from the moment they were read: their age counts from the read, every
 * write of this process drops them, and they are served only as the page of
 * the token that names them.
 *
 * Bounds: at most {@link PrefetchOptions.maxEntries} prepared pages per
 * process (one per harvest in progress; past that, no more are prepared), and
 * as many pages of rows read ahead (one per harvest, the page after the
 * prepared one), each kept {@link PrefetchOptions.lifetimeMs} at most and
 * served once. A page prepared or read ahead is read by the same pager as an
 * answered one (lib/oai/paging.ts), so it holds no more records than
 * `pageBytes` allows: with the entries bounded too, what the prefetcher holds
 * is bounded by `2 × maxEntries × pageBytes` of records, whatever their size.
 */
import type { OaiResponse } from '../../lib/oai';

/** A prepared answer: the response value and its rendered XML. */
export interface PreparedPage {
  readonly response: OaiResponse;
  /** The rendered document, UTF-8; its responseDate is rewritten in place when served. */
  readonly xml: Buffer;
  /** Where in `xml` the responseDate's text starts (20 ASCII bytes, `YYYY-MM-DDThh:mm:ssZ`). */
  readonly dateOffset: number;
}

/** Limits of the prefetcher. */
export interface PrefetchOptions {
  /** How long a prepared page may wait for its request, in milliseconds. */
  readonly lifetimeMs: number;
  /** Prepared pages held (or being prepared) at once. */
  readonly maxEntries: number;
  /** The clock in milliseconds (a monotonic one in production). */
  readonly clock: () => number;
}

interface Entry {
  /** When the page's rows were read (or began to be): its age counts from here. */
  readonly created: number;
  readonly page: Promise<PreparedPage | undefined>;
}

/** A page's rows read ahead of its rendering: the response value, not yet XML. */
interface Ahead {
  readonly created: number;
  readonly response: Promise<OaiResponse | undefined>;
}

/** The defaults: a page waits two seconds at most, and 16 harvests at once get one each. */
export const PREFETCH_DEFAULTS: PrefetchOptions = Object.freeze({
  lifetimeMs: 2000,
  maxEntries: 16,
  clock: () => performance.now(),
});

/**
 * A bounded, short-lived cache of pages prepared before they are asked for,
 * keyed by the request that will ask for them (see the top of this file).
 *
 * @example
 * const prefetch = new PagePrefetch();
 * prefetch.prepare('ListRecords\ntoken', async () => render(nextPage));
 * const page = await prefetch.take('ListRecords\ntoken'); // the prepared page, once, if still fresh
 */
export class PagePrefetch {
  private readonly entries = new Map<string, Entry>();
  private readonly ahead = new Map<string, Ahead>();
  private readonly options: PrefetchOptions;

  constructor(options: Partial<PrefetchOptions> = {}) {
    this.options = { ...PREFETCH_DEFAULTS, ...options };
  }

  /** The key of a continuing list request: its verb and token. */
  static key(verb: string, token: string): string {
    return `${verb}\n${token}`;
  }

  /**
   * Starts preparing the answer to the request `key` names, unless one is
   * held for it already or the cache is full. `produce` runs after the
   * current I/O callbacks (so the answer that was just written goes first)
   * and is given the page's rows if they were read ahead (its age then counts
   * from that read); a failure drops the entry (the request then takes the
   * ordinary path, which reports it).
   */
  prepare(key: string, produce: (readAhead: Promise<OaiResponse | undefined> | undefined) => Promise<PreparedPage | undefined>): void {
    this.expire();
    const ahead = this.ahead.get(key);
    this.ahead.delete(key);
    if (this.entries.has(key) || this.entries.size >= this.options.maxEntries) return;
    const page = new Promise<void>((resolve) => setImmediate(resolve)).then(() => produce(ahead?.response)).catch(() => undefined);
    this.entries.set(key, { created: ahead?.created ?? this.options.clock(), page });
  }

  /**
   * Issues the read of the page `key` names now, before the caller goes on
   * (renders and sends the page before it), unless that page is read ahead or
   * prepared already or as many pages are read ahead as the bound allows. The
   * rows wait for {@link prepare} of the same key; a failed read is dropped.
   * Returns whether a read was issued.
   */
  readAhead(key: string, read: () => Promise<OaiResponse>): boolean {
    this.expire();
    if (this.ahead.has(key) || this.entries.has(key) || this.ahead.size >= this.options.maxEntries) return false;
    let response: Promise<OaiResponse | undefined>;
    try {
      response = read().catch(() => undefined);
    } catch {
      return false;
    }
    this.ahead.set(key, { created: this.options.clock(), response });
    return true;
  }

  /** The page prepared for `key`, if it is fresh; it is removed, so it is served at most once. */
  async take(key: string): Promise<PreparedPage | undefined> {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    this.entries.delete(key);
    if (this.options.clock() - entry.created > this.options.lifetimeMs) return undefined;
    return entry.page;
  }

  /** Drops every prepared page, any being prepared, and every page read ahead: the store has changed. */
  invalidate(): void {
    this.entries.clear();
    this.ahead.clear();
  }

  /** Resolves once every page being prepared or read ahead now is ready (or failed): for tests, which must not depend on timing. */
  async settled(): Promise<void> {
    await Promise.all([...this.entries.values()].map((e) => e.page));
    await Promise.all([...this.ahead.values()].map((e) => e.response));
  }

  /** How many pages are held or being prepared (for tests and diagnostics). */
  get size(): number {
    return this.entries.size;
  }

  /** How many pages' rows are read ahead or being read (for tests and diagnostics). */
  get readingAhead(): number {
    return this.ahead.size;
  }

  private expire(): void {
    const now = this.options.clock();
    for (const [key, entry] of this.entries) if (now - entry.created > this.options.lifetimeMs) this.entries.delete(key);
    for (const [key, entry] of this.ahead) if (now - entry.created > this.options.lifetimeMs) this.ahead.delete(key);
  }
}
