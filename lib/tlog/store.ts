/**
 * What the publication log's readers (its HTTP endpoints, `doctor`) ask of
 * the store: its head, its tiles and its entries. Implemented over the
 * database by server/store/publication-log.ts.
 */

/** The log's size and root after its last append. */
export interface LogHead {
  readonly size: number;
  readonly root: Buffer;
}

/** A read-only view of the publication log. */
export interface PublicationLogStore {
  /** The head; the empty tree's when nothing was appended. */
  head(): Promise<LogHead>;
  /** The stored hashes of a tile (32 bytes each; fewer than 256 for a partial tile), or null when it was never written. */
  tile(level: number, n: number): Promise<Buffer | null>;
  /** Entries `from` .. `from + count - 1` that exist, in order. */
  entries(from: number, count: number): Promise<Buffer[]>;
  /**
   * The root of the tree of the first `size` leaves, from the tiles as
   * stored: equal to the head's root at the head's size, and to every
   * earlier checkpoint's root at its size, while the log is intact.
   */
  rootAt(size: number): Promise<Buffer>;
  /** The largest checkpoint a server of this store signed (null: none), and recording a new one. */
  signed(): Promise<LogHead | null>;
  recordSigned(head: LogHead): Promise<void>;
}
