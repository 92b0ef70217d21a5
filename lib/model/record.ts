/**
 * The typed record model: the fifteen Dublin Core fields of the record
 * format, plus the optional structured fields that the richer metadata
 * formats (OpenAIRE v4, DataCite kernel-4, MARCXML, MODS) need and Dublin
 * Core cannot carry. ./from-json.ts reads it from a record's JSON; docs/record-format.md
 * ("Record fields") documents every field. Types only.
 */
import type { DublinCore } from './dublin-core';
import type { IdentifierType } from './identifiers';
import type { AccessRight, ContributorType, DataCiteResourceType, FunderIdentifierType, RelatedIdentifierType, RelationType } from './vocabularies';

/** A typed identifier of the record itself, in its scheme's normalized form. */
export interface TypedIdentifier {
  readonly type: IdentifierType;
  readonly value: string;
}

/** An organisation a person or organisation is affiliated with. */
export interface Affiliation {
  readonly name: string;
  /** https://ror.org/… (checked, with its check digits). */
  readonly ror?: string;
}

/** A creator: a person or an organisation. */
export interface Agent {
  /** The name as it should be displayed, e.g. "Curie, Marie". */
  readonly name: string;
  readonly givenName?: string;
  readonly familyName?: string;
  readonly nameType?: 'person' | 'organization';
  /** The bare ORCID iD, 0000-0000-0000-000X (persons only). */
  readonly orcid?: string;
  readonly affiliations?: readonly Affiliation[];
}

/** A contributor: an agent and its DataCite contributorType. */
export interface Contributor extends Agent {
  readonly type: ContributorType;
}

/** The record's resource type: a COAR concept and/or a DataCite resourceTypeGeneral. */
export interface ResourceType {
  /** A COAR resource type concept URI (http://purl.org/coar/resource_type/…). */
  readonly coar?: string;
  /** DataCite resourceTypeGeneral: given, or derived from the COAR type (vocabularies.ts). */
  readonly general: DataCiteResourceType;
  /** The free-text type: given, or the COAR label, or the general type. */
  readonly label: string;
}

/** The typed dates of a record, each an ISO 8601 calendar date (YYYY, YYYY-MM or YYYY-MM-DD; embargo end a full date). */
export interface RecordDates {
  readonly issued?: string;
  readonly accepted?: string;
  readonly available?: string;
  readonly embargoEnd?: string;
}

/** A funding reference (DataCite fundingReference). */
export interface FundingReference {
  readonly funderName: string;
  readonly funderIdentifier?: { readonly type: FunderIdentifierType; readonly value: string };
  readonly awardNumber?: string;
  readonly awardUri?: string;
  readonly awardTitle?: string;
}

/** An identifier of a related resource and how the record relates to it (DataCite relatedIdentifier). */
export interface RelatedIdentifier {
  readonly identifier: string;
  readonly type: RelatedIdentifierType;
  readonly relation: RelationType;
  readonly resourceTypeGeneral?: DataCiteResourceType;
}

/**
 * Where the work was published: the container it appears in (a journal, a
 * book, conference proceedings) and its place there, the parts of a
 * bibliographic citation (OpenAIRE v4 fields 24-28, DataCite 4.4+
 * relatedItem, MODS relatedItem type host, MARC 773). Text as the record
 * gives it: a volume may be "23" or "Suppl. 2", a page "e1234" or "xii".
 *
 * The container's ISSN or ISBN is not here but a related identifier with
 * relation IsPublishedIn or IsPartOf (`relatedIdentifiers`), where every
 * format already carries it; facts.ts `hostOf` reads both.
 */
export interface Host {
  /** The container's title (journal, book or proceedings). */
  readonly title?: string;
  readonly volume?: string;
  readonly issue?: string;
  readonly startPage?: string;
  readonly endPage?: string;
}

/** A file of the record. */
export interface RecordFile {
  readonly url: string;
  /** An IANA media type, e.g. application/pdf. */
  readonly mediaType?: string;
  /** Size in bytes. */
  readonly size?: number;
  readonly access?: AccessRight;
}

/** The typed record: Dublin Core plus the optional structured fields. */
export interface RecordFields {
  readonly dc: DublinCore;
  readonly identifiers?: readonly TypedIdentifier[];
  readonly creators?: readonly Agent[];
  readonly contributors?: readonly Contributor[];
  readonly resourceType?: ResourceType;
  readonly accessRights?: AccessRight;
  /** A licence URI, e.g. https://creativecommons.org/licenses/by/4.0/. */
  readonly license?: string;
  readonly publisher?: string;
  /** Four digits. */
  readonly publicationYear?: string;
  readonly dates?: RecordDates;
  /** A BCP 47 (RFC 5646) language tag in its conventional case (./language.ts), e.g. `en`, `en-US`, `eng`. */
  readonly language?: string;
  readonly fundingReferences?: readonly FundingReference[];
  readonly relatedIdentifiers?: readonly RelatedIdentifier[];
  /** Where the work was published: its container and place there. */
  readonly host?: Host;
  readonly files?: readonly RecordFile[];
}
