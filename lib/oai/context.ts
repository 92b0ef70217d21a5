/**
 * What the verb handlers need, passed in (STYLE.md: nothing in lib/ reads
 * configuration or the clock by itself).
 */
import type { ReadStore } from '../store';
import type { FormatRegistry } from '../formats/registry';

/** The repository as Identify describes it. */
export interface RepositoryInfo {
  readonly name: string;
  readonly baseURL: string;
  readonly adminEmails: readonly string[];
  /** The namespace-identifier of the oai-identifiers (e.g. `demo.oai-steward.org`). */
  readonly namespace: string;
  /** Content codings besides identity, as Identify lists them (OAI-PMH 3.1.3). */
  readonly compression: readonly string[];
  /**
   * Serialized description containers Identify carries after `oai-identifier`
   * (lib/oai/descriptions.ts), one root element each.
   */
  readonly descriptions?: readonly string[];
  /**
   * When the store was created (seconds): Identify's earliestDatestamp while
   * the repository holds no record, a time it truly existed at (a harvest
   * from it misses nothing); the epoch when absent.
   */
  readonly createdAt?: number;
}

/** Everything a request is answered from. */
export interface ProviderContext {
  readonly store: ReadStore;
  readonly formats: FormatRegistry;
  readonly repository: RepositoryInfo;
  /** Items (or sets) per list page. */
  readonly pageSize: number;
  /**
   * Bytes of stored metadata and about containers a ListRecords page holds at
   * most, unless its first record alone is larger (it is then served alone);
   * absent: pages are bounded by `pageSize` only.
   */
  readonly pageBytes?: number;
  /** HMAC key of resumption tokens; every process serving the repository shares it. */
  readonly tokenSecret: string;
  /** Seconds a resumption token stays valid after it was issued. */
  readonly tokenLifetime: number;
}
