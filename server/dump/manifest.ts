/**
 * The manifest of a bulk dump (`manifest.json`, docs/dumps.md): what the
 * dump holds and how to check each file, read by a mirror before it
 * downloads anything.
 */

/** The manifest's file name in a dump folder; the folder's route serves it for the folder itself. */
export const MANIFEST_NAME = 'manifest.json';

/** One file of a dump. */
export interface DumpFile {
  /** The file name, in the manifest's folder. */
  readonly name: string;
  /** `ListRecords`: a ListRecords response of one format; `records`: the JSON lines `oai-steward load` reads. */
  readonly kind: 'ListRecords' | 'records';
  /** For `ListRecords`: the format. */
  readonly metadataPrefix?: string;
  /** Always `application/gzip`: the file is gzip-compressed (not a content coding). */
  readonly mediaType: string;
  /** Records (items) in the file, deleted ones included. */
  readonly records: number;
  /** Of those, deleted. */
  readonly deleted: number;
  /** For `records`: sets declared in the file. */
  readonly sets?: number;
  /** Size of the file as stored and served (compressed), bytes. */
  readonly bytes: number;
  /** SHA-256 of the file as stored and served, hexadecimal. */
  readonly sha256: string;
}

/** The manifest. */
export interface DumpManifest {
  readonly dump: 'oai-steward bulk dump';
  readonly version: 1;
  /** The repository's OAI-PMH base URL. */
  readonly baseURL: string;
  /** When the snapshot was taken: every file shows the store as it was then (`YYYY-MM-DDThh:mm:ssZ`). */
  readonly snapshot: string;
  /** A delta: only records whose datestamp is at or after this; null for a full dump. */
  readonly since: string | null;
  /** The earliest and latest datestamp of the records in the dump (null when it holds none). */
  readonly datestamps: { readonly earliest: string | null; readonly latest: string | null };
  /** Items in the dump, deleted ones included. */
  readonly items: number;
  readonly deleted: number;
  /** Sets the repository declares (a delta lists them all too). */
  readonly sets: number;
  readonly files: readonly DumpFile[];
}
