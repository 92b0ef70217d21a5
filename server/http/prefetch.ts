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
 * Bounds: at most {@link PrefetchOptions.maxEntries} prepared pages per
 * process (one per harvest in progress; past that, no more are prepared), each
 * kept {@link PrefetchOptions.lifetimeMs} at most and served once.
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
  readonly created: number;
  readonly page: Promise<PreparedPage | undefined>;
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
   * current I/O callbacks (so the answer that was just written goes first);
   * a failure drops the entry (the request then takes the ordinary path,
   * which reports it).
   */
  prepare(key: string, produce: () => Promise<PreparedPage | undefined>): void {
    this.expire();
    if (this.entries.has(key) || this.entries.size >= this.options.maxEntries) return;
    const page = new Promise<void>((resolve) => setImmediate(resolve)).then(produce).catch(() => undefined);
    this.entries.set(key, { created: this.options.clock(), page });
  }

  /** The page prepared for `key`, if it is fresh; it is removed, so it is served at most once. */
  async take(key: string): Promise<PreparedPage | undefined> {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    this.entries.delete(key);
    if (this.options.clock() - entry.created > this.options.lifetimeMs) return undefined;
    return entry.page;
  }

  /** Drops every prepared page, and any being prepared: the store has changed. */
  invalidate(): void {
    this.entries.clear();
  }

  /** Resolves once every page being prepared now is ready (or failed): for tests, which must not depend on timing. */
  async settled(): Promise<void> {
    await Promise.all([...this.entries.values()].map((e) => e.page));
  }

  /** How many pages are held or being prepared (for tests and diagnostics). */
  get size(): number {
    return this.entries.size;
  }

  private expire(): void {
    const now = this.options.clock();
    for (const [key, entry] of this.entries) if (now - entry.created > this.options.lifetimeMs) this.entries.delete(key);
  }
}
