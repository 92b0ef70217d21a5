/**
 * The typed record model: the fifteen Dublin Core fields of the record
 * format, plus the optional structured fields that the richer metadata
 * formats (OpenAIRE v4, DataCite kernel-4, MARCXML, MODS) need and Dublin
 * Core cannot carry. ./from-json.ts reads it from a record's JSON; docs/record-format.md
 * ("Record fields") documents every field. Types only.
 */
import type { DublinCore } from './dublin-core';
import type { IdentifierType } from './identifiers';
import type {
  AccessRight,
  ContributorType,
  DataCiteDateType,
  DataCiteDescriptionType,
  DataCiteTitleType,
  DataCiteNumberType,
  DataCiteResourceType,
  FunderIdentifierType,
  RelatedIdentifierType,
  RelationType,
} from './vocabularies';

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
  /** The affiliation's identifier as given (DataCite 4.3+ affiliationIdentifier), of any scheme. */
  readonly identifier?: string;
  /** Its scheme (affiliationIdentifierScheme: ROR, ISNI, GRID, …). */
  readonly identifierScheme?: string;
  /** The scheme's URI (schemeURI). */
  readonly schemeUri?: string;
}

/**
 * An identifier of a person or organisation in any scheme, as DataCite's
 * nameIdentifier gives it (ORCID, ROR, ISNI, Wikidata, GND, …): the value as
 * written, its scheme, the scheme's URI.
 */
export interface NameIdentifier {
  readonly value: string;
  readonly scheme: string;
  readonly schemeUri?: string;
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
  /** Every name identifier as given, of any scheme (the ORCID iD too, as written); `orcid` is the checked one. */
  readonly nameIdentifiers?: readonly NameIdentifier[];
  /** The language of the name (xml:lang of creatorName, contributorName). */
  readonly lang?: string;
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

/** The typed dates of a record, each W3CDTF in the precision given (YYYY, YYYY-MM, YYYY-MM-DD or a day with a time and zone; embargo end a full date, YYYY-MM-DD). */
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
  /** The funder identifier's scheme URI (DataCite funderIdentifier/@schemeURI). */
  readonly funderIdentifierSchemeUri?: string;
  /** The language of the award title (xml:lang). */
  readonly awardTitleLang?: string;
}

/** An identifier of a related resource and how the record relates to it (DataCite relatedIdentifier). */
export interface RelatedIdentifier {
  readonly identifier: string;
  readonly type: RelatedIdentifierType;
  readonly relation: RelationType;
  readonly resourceTypeGeneral?: DataCiteResourceType;
  /** DataCite relatedMetadataScheme, schemeURI and schemeType (for HasMetadata and IsMetadataFor). */
  readonly relatedMetadataScheme?: string;
  readonly schemeUri?: string;
  readonly schemeType?: string;
  /** DataCite 4.5+ relationTypeInformation: what the relation says beyond its type. */
  readonly relationTypeInformation?: string;
  /**
   * True for the identifier of a DataCite related item (relatedItemIdentifier) that the record does not also
   * give as a relatedIdentifier of its own: every format sees it here, and DataCite writes it once, in the item.
   */
  readonly inRelatedItem?: boolean;
}

/** A title with its type and language (DataCite title, OpenAIRE datacite:title). */
export interface TitleEntry {
  readonly value: string;
  /** Absent for the main title. */
  readonly type?: DataCiteTitleType;
  readonly lang?: string;
}

/** A subject with its scheme (DataCite subject). */
export interface SubjectEntry {
  readonly value: string;
  readonly scheme?: string;
  readonly schemeUri?: string;
  readonly valueUri?: string;
  readonly classificationCode?: string;
  readonly lang?: string;
}

/**
 * A date with its DataCite dateType: one date or a range (RFC 3339 / ISO 8601
 * as DataCite 4.7 property 8 writes it, `start/end`, either side open),
 * text as given, and the dateInformation that says more.
 */
export interface TypedDate {
  readonly value: string;
  readonly type: DataCiteDateType;
  readonly information?: string;
}

/** A description with its DataCite descriptionType and language. */
export interface DescriptionEntry {
  readonly value: string;
  readonly type: DataCiteDescriptionType;
  readonly lang?: string;
}

/** A rights statement as DataCite 4.7 property 16 gives it: text, URI, identifier (e.g. SPDX) and language together. */
export interface RightsEntry {
  readonly text?: string;
  readonly uri?: string;
  /** e.g. CC-BY-4.0. */
  readonly identifier?: string;
  /** e.g. SPDX. */
  readonly identifierScheme?: string;
  readonly schemeUri?: string;
  readonly lang?: string;
}

/** An identifier of the record in a scheme the model does not type (or as written), with DataCite's alternateIdentifierType. */
export interface AlternateIdentifier {
  readonly value: string;
  readonly type: string;
}

/** A point on the earth, WGS 84 decimal degrees. */
export interface GeoPoint {
  readonly latitude: number;
  readonly longitude: number;
}

/** A spatial extent (DataCite geoLocation): places by name, points, boxes and polygons, as given. */
export interface GeoLocation {
  readonly places?: readonly string[];
  readonly points?: readonly GeoPoint[];
  readonly boxes?: readonly { readonly west: number; readonly east: number; readonly south: number; readonly north: number }[];
  readonly polygons?: readonly { readonly points: readonly GeoPoint[]; readonly inPoint?: GeoPoint }[];
}

/** A publisher's identifier (DataCite 4.5+ publisherIdentifier, its scheme and scheme URI). */
export interface PublisherIdentifier {
  readonly value: string;
  readonly scheme?: string;
  readonly schemeUri?: string;
}

/** A creator or contributor of a related item (DataCite 4.4 relatedItem): a name, its type and parts. */
export interface RelatedItemAgent {
  readonly name: string;
  readonly nameType?: 'person' | 'organization';
  readonly givenName?: string;
  readonly familyName?: string;
  readonly lang?: string;
  /** A contributor's contributorType. */
  readonly type?: ContributorType;
}

/** A related item with every property DataCite 4.4-4.7 gives it (property 20), as given. */
export interface RelatedItem {
  readonly itemType: DataCiteResourceType;
  readonly relation: RelationType;
  readonly relationTypeInformation?: string;
  readonly identifier?: {
    readonly value: string;
    readonly type?: RelatedIdentifierType;
    readonly relatedMetadataScheme?: string;
    readonly schemeUri?: string;
    readonly schemeType?: string;
  };
  readonly creators?: readonly RelatedItemAgent[];
  readonly titles?: readonly TitleEntry[];
  readonly publicationYear?: string;
  readonly volume?: string;
  readonly issue?: string;
  readonly number?: { readonly value: string; readonly type?: DataCiteNumberType };
  readonly firstPage?: string;
  readonly lastPage?: string;
  readonly publisher?: string;
  readonly edition?: string;
  readonly contributors?: readonly RelatedItemAgent[];
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
 * format already carries it; citation-facts.ts `hostOf` reads both.
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

  // What DataCite kernel-4 says beyond the fields above, as given (DataCite 4.7). A writer of DataCite writes
  // these first and the fields above where they say something these do not; other writers read the fields above.
  /** Titles with their type and language. */
  readonly titles?: readonly TitleEntry[];
  /** The publisher's identifier. */
  readonly publisherIdentifier?: PublisherIdentifier;
  /** The language of the publisher's name (xml:lang). */
  readonly publisherLang?: string;
  /** Subjects with scheme, scheme URI, value URI, classification code and language. */
  readonly subjects?: readonly SubjectEntry[];
  /** Every date with its type, ranges as ranges. */
  readonly typedDates?: readonly TypedDate[];
  /** Identifiers of the record with their alternateIdentifierType, as given. */
  readonly alternateIdentifiers?: readonly AlternateIdentifier[];
  /** Sizes as DataCite gives them (free text: "15 pages", "6 MB"). */
  readonly sizes?: readonly string[];
  /** The version of the resource (DataCite property 15). */
  readonly version?: string;
  /** Rights statements, each whole. */
  readonly rightsList?: readonly RightsEntry[];
  /** Descriptions with their type and language. */
  readonly descriptions?: readonly DescriptionEntry[];
  /** Spatial coverage. */
  readonly geoLocations?: readonly GeoLocation[];
  /** Related items with every property. */
  readonly relatedItems?: readonly RelatedItem[];
  /**
   * Related identifiers whose value the check of their scheme refuses (an
   * ISSN whose check digit is wrong, a Handle without its prefix), as given
   * with their type, relation and the rest: DataCite writes them again;
   * every other format has their value as the `dc.relation` text it also is.
   */
  readonly uncheckedRelatedIdentifiers?: readonly RelatedIdentifier[];
}
