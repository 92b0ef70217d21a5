/**
 * The value a verb handler returns and the XML writer renders. No XML here:
 * a response is data, so tests can look at it without parsing.
 */
import type { OaiError } from './errors';
import type { ArgName, Verb } from './request';
import type { ItemHeader, ItemRecord, SetInfo } from '../store';
import type { MetadataFormat } from '../formats/format';

/** The `resumptionToken` element: a token for the next page, or empty on the last one. */
export interface ResumptionInfo {
  /** Empty string on the page that completes the list (OAI-PMH 3.5). */
  readonly token: string;
  readonly cursor: number;
  readonly completeListSize: number;
  /** Seconds; absent on the last page. */
  readonly expirationDate?: number;
}

export interface IdentifyBody {
  readonly repositoryName: string;
  readonly baseURL: string;
  readonly adminEmails: readonly string[];
  readonly earliestDatestamp: number;
  readonly deletedRecord: 'no' | 'transient' | 'persistent';
  readonly compression: readonly string[];
  /** Serialized XML of each description container's content. */
  readonly descriptions: readonly string[];
}

export type ResponseBody =
  | {
      readonly kind: 'errors';
      readonly errors: readonly OaiError[];
      /**
       * The answer says the store holds no such item, format of it or set
       * (OAI-PMH 3.6 idDoesNotExist, cannotDisseminateFormat for an item,
       * noMetadataFormats, noSetHierarchy): true only of a store holding
       * every committed write, so ./handle.ts lets a read replica give it
       * only once caught up with its primary. Absent when the errors rest on
       * the request or the configuration alone.
       */
      readonly absent?: true;
    }
  | { readonly kind: 'Identify'; readonly identify: IdentifyBody }
  | { readonly kind: 'GetRecord'; readonly record: ItemRecord }
  | { readonly kind: 'ListRecords'; readonly records: readonly ItemRecord[]; readonly resumption?: ResumptionInfo }
  | { readonly kind: 'ListIdentifiers'; readonly headers: readonly ItemHeader[]; readonly resumption?: ResumptionInfo }
  | { readonly kind: 'ListSets'; readonly sets: readonly SetInfo[]; readonly resumption?: ResumptionInfo }
  | { readonly kind: 'ListMetadataFormats'; readonly formats: readonly MetadataFormat[] };

/** A whole response: when, to what, and the body. */
export interface OaiResponse {
  /** Seconds since the epoch. */
  readonly responseDate: number;
  readonly baseURL: string;
  /** The attributes of `request`; absent for badVerb/badArgument (OAI-PMH 3.2). */
  readonly requestArgs?: { readonly verb: Verb } & Readonly<Partial<Record<ArgName, string>>>;
  readonly body: ResponseBody;
}

/** How many items a response carries (for the request log). */
export function itemCount(body: ResponseBody): number {
  switch (body.kind) {
    case 'GetRecord':
      return 1;
    case 'ListRecords':
      return body.records.length;
    case 'ListIdentifiers':
      return body.headers.length;
    case 'ListSets':
      return body.sets.length;
    case 'ListMetadataFormats':
      return body.formats.length;
    default:
      return 0;
  }
}
