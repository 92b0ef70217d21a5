/**
 * OAI-PMH error codes (OAI-PMH 3.6) explained for a person: what went wrong
 * and what to try, beside the repository's own message.
 */
import type { OaiErrorCode } from '../oai';

/** One explanation: a heading and a sentence or two. */
export interface Explanation {
  readonly title: string;
  readonly text: string;
}

/** Every code of OAI-PMH 3.6, explained. */
export const ERROR_EXPLANATIONS: Readonly<Record<OaiErrorCode, Explanation>> = {
  badArgument: {
    title: 'The request has a wrong, missing or repeated argument',
    text: 'Each verb takes its own arguments (for example, ListRecords needs a format). Dates are YYYY-MM-DD or YYYY-MM-DDThh:mm:ssZ. Use the form below to build a request.',
  },
  badResumptionToken: {
    title: 'The link to the next page is no longer valid',
    text: 'Resumption tokens expire, and a token only works with the request that issued it. Start the list again from its first page.',
  },
  badVerb: {
    title: 'The request does not name a verb this protocol knows',
    text: 'OAI-PMH has six verbs: Identify, ListSets, ListMetadataFormats, ListIdentifiers, ListRecords and GetRecord, each given once as verb=….',
  },
  cannotDisseminateFormat: {
    title: 'That metadata format is not available here',
    text: 'Either the repository does not offer the format, or this item does not have it. The Formats page lists what is offered.',
  },
  idDoesNotExist: {
    title: 'No item has this identifier',
    text: 'Identifiers are compared exactly, including capitals and escapes such as %20. Browse the records to find the item.',
  },
  noRecordsMatch: {
    title: 'No record matches',
    text: 'Nothing in this set, format and date range. Widen the dates or choose another set.',
  },
  noMetadataFormats: {
    title: 'This item has no metadata format to offer',
    text: 'The item exists but no format is available for it.',
  },
  noSetHierarchy: {
    title: 'This repository has no sets',
    text: 'Harvest without a set to get every record.',
  },
};
