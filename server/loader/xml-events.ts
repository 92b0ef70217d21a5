/**
 * What reading an XML input yields (./read-oai-xml.ts): its records, sets,
 * faults, resumption and request, and what the reader is told: the shape it
 * expects, the collections it splits, its options.
 */
import type { SetInput } from '../../lib/store';

/** One record of a response (or a bare metadata document), as read. */
export interface XmlRecord {
  readonly kind: 'record';
  /** 1-based position of the record in its input. */
  readonly number: number;
  /** The line the record starts on. */
  readonly line: number;
  /** header/identifier (absent in a bare metadata document). */
  readonly identifier?: string;
  /** header/datestamp as written. */
  readonly datestamp?: string;
  readonly deleted: boolean;
  readonly sets: readonly string[];
  /** The canonical serialization of the metadata element's child; absent when there is none. */
  readonly metadata?: string;
  /** The namespace URI of the metadata root element. */
  readonly metadataNamespace?: string;
  /** The dc:identifier values found inside the metadata. */
  readonly dcIdentifiers: readonly string[];
  /** The canonical serialization of each `about` element's child, in order. */
  readonly about: readonly string[];
  /** Problems found while reading the record (e.g. two metadata elements). */
  readonly problems: readonly { field: string; reason: string }[];
  /**
   * Part of the record was not kept: it was larger than `maxRecordBytes`
   * (with `refuseOversizedRecords`), or an element of it was past a bound of
   * the XML read (too deep, too many attributes); its problems say which.
   */
  readonly cut?: boolean;
  /** A bare metadata document (no header): its internal id comes from its file's name. */
  readonly bare?: boolean;
  /**
   * A record of a collection (a bare document holding several records of
   * one format): `number` is its position in the collection, and its
   * internal id is its own identifier, else its file's name and position.
   */
  readonly member?: boolean;
}

/**
 * A container of bare records (lib/formats/format.ts `FormatCollection`):
 * its namespace and local name, and its records' local name.
 */
export interface CollectionShape {
  readonly namespace: string;
  readonly container: string;
  readonly record: string;
}

/** One set of a ListSets response. */
export interface XmlSet {
  readonly kind: 'set';
  readonly number: number;
  readonly line: number;
  readonly set: SetInput;
}

/** The input as a whole is unusable from this line on (not well-formed, an OAI-PMH error, not a response). */
export interface XmlFault {
  readonly kind: 'fault';
  readonly line: number;
  readonly reason: string;
  /** The OAI-PMH error code, when the response is an OAI-PMH error (e.g. `badResumptionToken`). */
  readonly code?: string;
  /** The fault is XML that is not well-formed (a harvester may ask again). */
  readonly malformed?: boolean;
}

/** The resumptionToken of a list response (OAI-PMH 2.0 section 3.5), reported at its end; an empty token ends the list. */
export interface XmlResumption {
  readonly kind: 'resumption';
  readonly token: string;
  readonly completeListSize?: number;
  readonly cursor?: number;
}

/** What the verb of the response was (from its `request` element or its body), reported once. */
export interface XmlRequestInfo {
  readonly kind: 'request';
  readonly verb?: string;
  readonly metadataPrefix?: string;
  /** The `request` element's content: the baseURL of the repository that answered. */
  readonly baseURL?: string;
  /** The `responseDate`, as written. */
  readonly responseDate?: string;
}

export type XmlEvent = XmlRecord | XmlSet | XmlFault | XmlRequestInfo | XmlResumption;

/** How a response's records are read. */
export interface ReadOptions {
  /**
   * A record of a response larger than `maxRecordBytes` (its metadata, an
   * about container, a text of its header) is refused alone, a problem of
   * its own, and the records after it read on; without it the input stops
   * there. The harvester's choice: one large record never stops a source.
   */
  readonly refuseOversizedRecords?: boolean;
}

/** What the reader expects at the root: an OAI-PMH response, one bare metadata document, or whichever the root says (`auto`). */
export type XmlInputShape = 'response' | 'bare' | 'auto';
