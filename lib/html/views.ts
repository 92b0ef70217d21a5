/**
 * What a page for people shows, as the verbs' answers and the store give it:
 * an item with its formats, the home page, a source that failed (./pages.ts
 * renders them).
 */
import type { OaiResponse } from '../oai';
import { type MetadataFormat } from '../formats/format';
import type { ItemRecord, SetInfo, StoredRun } from '../store';
import type { XmlElement } from '../xml/tree';
import type { ItemFacts } from '../signposting/facts';
import type { RecordFields } from '../model/record';
import type { PagePaths } from './layout';

/** One format of an item, with its record and the record parsed. */
export interface ItemFormatView {
  readonly format: MetadataFormat;
  readonly record: ItemRecord;
  /** The parsed metadata; null for a tombstone or a record that could not be read. */
  readonly tree: XmlElement | null;
}

/** What the record page shows besides the GetRecord answer. */
export interface ItemView {
  /** Every format the item has, in registry order. */
  readonly formats: readonly ItemFormatView[];
  readonly facts: ItemFacts;
  /** The item's record model, which the page's meta tags and JSON-LD are read from (`{ dc: {} }` for a deleted item). */
  readonly model: RecordFields;
  /** The item's POI, when its identifier has one. */
  readonly poi: string | null;
  /** Where this server resolves the POI (a path, e.g. `/poi/ns/local`), for readers who cannot reach purl.org. */
  readonly resolver?: string;
}

/** What the home page shows besides the Identify answer. */
export interface HomeView {
  /** Items (live and deleted) per format. */
  readonly counts: ReadonlyArray<{ readonly prefix: string; readonly items: number }>;
  /** The first sets in spec order. */
  readonly sets: readonly SetInfo[];
  readonly setCount: number;
}

/** What the page of a harvested source's set shows of its harvests: the last run that did not complete. */
export interface SourceFailureView {
  readonly source: string;
  readonly run: StoredRun;
  /** Whether a later run completed. */
  readonly completedSince: boolean;
}

/** Everything a page is rendered from. */
export interface PageInput {
  readonly response: OaiResponse;
  readonly repositoryName: string;
  readonly paths: PagePaths;
  /** Every format the repository offers. */
  readonly formats: readonly MetadataFormat[];
  readonly home?: HomeView;
  readonly item?: ItemView;
  /** On the page of a harvested source's set (`source:NAME`): its last failed harvest. */
  readonly sourceFailure?: SourceFailureView;
}
