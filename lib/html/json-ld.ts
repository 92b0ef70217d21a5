/**
 * The schema.org description of a record page as JSON-LD (JSON-LD 1.1; HTML
 * 4.12.1.2 "data blocks"): a `<script type="application/ld+json">` the
 * browser never runs, so the page's Content-Security-Policy, which allows no
 * script, still holds. Read from the record model's facts
 * (lib/model/facts.ts), never from a format's XML, as Signposting is.
 */
import {
  accessRightOf,
  creators,
  dcValues,
  fileLinks,
  identifierUri,
  keywords,
  languages,
  licences,
  publicationDate,
  publisher,
  recordIdentifiers,
  titles,
} from '../model/facts';
import { schemaOrgTypes } from '../model/type-facts';
import { hostOf, type CitationIdentifier, type HostFacts } from '../model/citation-facts';
import { isHttpUrl } from '../model/identifiers';
import type { Agent, RecordFields } from '../model/record';

const SCHEMA_ORG = 'https://schema.org/';

/** A JSON value (what JSON.stringify writes as it is). */
export type Json = string | number | boolean | null | readonly Json[] | { readonly [key: string]: Json };
/** A JSON object. */
export type JsonObject = { readonly [key: string]: Json };

/** Where the record is on this server, and how it is cited. */
export interface RecordPlace {
  /** The record page's absolute URL (`url`). */
  readonly landingPage: string;
  /** The identifier the item is cited by (`@id` when it is an http(s) URI). */
  readonly citation?: CitationIdentifier;
  /** The item's POI, another name of it (`sameAs`). */
  readonly poi?: string;
}

/** One value, or several as a list, or nothing: what schema.org's properties take. */
function oneOrMany(values: readonly string[]): Json | undefined {
  if (values.length === 0) return undefined;
  return values.length === 1 ? (values[0] as string) : values;
}

/** An object without its undefined members (JSON.stringify drops them too; the tests compare objects). */
function defined(o: Record<string, Json | undefined>): JsonObject {
  return Object.fromEntries(Object.entries(o).filter((e): e is [string, Json] => e[1] !== undefined));
}

/**
 * A creator as a schema.org Person or Organization: the type the model
 * gives; a person when it has a given or family name or an ORCID iD, or when
 * its name is in the inverted `Family, Given` form (the form the DCMI and
 * OpenAIRE guidelines ask of persons); else untyped, rather than guessed. An
 * ORCID iD is the node's `@id` and `identifier`; an affiliation's ROR id its
 * organization's `@id`.
 */
function agent(a: Agent): JsonObject {
  const orcid = a.orcid === undefined ? undefined : `https://orcid.org/${a.orcid}`;
  const person =
    a.nameType === 'person' ||
    (a.nameType === undefined && (a.givenName !== undefined || a.familyName !== undefined || orcid !== undefined || /^[^,]+,\s*\S/.test(a.name)));
  const type = a.nameType === 'organization' ? 'Organization' : person ? 'Person' : undefined;
  const affiliations = (a.affiliations ?? []).map((f) => defined({ '@type': 'Organization', '@id': f.ror, name: f.name }));
  return defined({
    '@type': type,
    '@id': orcid,
    name: a.name,
    givenName: a.givenName,
    familyName: a.familyName,
    identifier: orcid,
    affiliation: affiliations.length === 0 ? undefined : affiliations,
  });
}

/**
 * Where the work was published, as schema.org nests it (schema.org
 * PublicationIssue and PublicationVolume, "a part of a successively
 * published publication such as a periodical or multi-volume work"): the
 * issue, in the volume, in the container, each level only when the record
 * names it; the container a `Periodical` with its ISSNs, or for a book
 * chapter a `Book` with its ISBNs.
 */
function isPartOf(h: HostFacts): JsonObject | undefined {
  const book = h.kind === 'book';
  const ids = book ? h.isbns : h.issns;
  let part: JsonObject | undefined =
    h.title !== undefined || ids.length > 0
      ? defined({ '@type': book ? 'Book' : 'Periodical', name: h.title, [book ? 'isbn' : 'issn']: oneOrMany(ids) })
      : undefined;
  if (h.volume !== undefined) part = defined({ '@type': 'PublicationVolume', volumeNumber: h.volume, isPartOf: part });
  if (h.issue !== undefined) part = defined({ '@type': 'PublicationIssue', issueNumber: h.issue, isPartOf: part });
  return part;
}

/**
 * The schema.org JSON-LD of a record: its type from the model's resource type
 * (`ScholarlyArticle`, `Dataset`, `Thesis`, `Book`, `SoftwareSourceCode`, …,
 * else `CreativeWork`), name, authors, date, publisher, identifiers (each a
 * `PropertyValue`, a DOI as its https URL, as DataCite writes it), where it
 * was published (`isPartOf`, `pageStart`, `pageEnd`), licence,
 * whether it is free to read (from its access right), keywords, language, its
 * page (`url`) and its other names (`sameAs`); a dataset's files as its
 * `distribution`.
 *
 * @example recordJsonLd({ dc: { title: ['T'], type: ['Dataset'] } }, { landingPage: 'https://r.org/p' })
 * // { '@context': 'https://schema.org', '@type': 'Dataset', '@id': 'https://r.org/p', name: 'T', url: 'https://r.org/p' }
 */
export function recordJsonLd(r: RecordFields, place: RecordPlace): JsonObject {
  const types = schemaOrgTypes(r)
    .filter((t) => t.startsWith(SCHEMA_ORG))
    .map((t) => t.slice(SCHEMA_ORG.length));
  const cite = place.citation !== undefined && isHttpUrl(place.citation.uri) ? place.citation.uri : undefined;
  const id = cite ?? place.landingPage;
  const ids: Array<{ scheme: string; uri: string }> = recordIdentifiers(r).map((i) => ({ scheme: i.type, uri: identifierUri(i) }));
  if (place.poi !== undefined) ids.push({ scheme: 'POI', uri: place.poi });
  const sameAs = [...new Set(ids.map((i) => i.uri).filter((u) => isHttpUrl(u) && u !== id && u !== place.landingPage))];
  const date = publicationDate(r);
  const by = publisher(r);
  const access = accessRightOf(r);
  const authors = creators(r).map(agent);
  const [name, ...otherNames] = titles(r);
  const files = fileLinks(r);
  const subjects = keywords(r);
  const host = hostOf(r);
  return defined({
    '@context': 'https://schema.org',
    '@type': oneOrMany(types.length > 0 ? types : ['CreativeWork']),
    '@id': id,
    name,
    alternateName: oneOrMany(otherNames),
    author: authors.length === 0 ? undefined : authors,
    datePublished: 'date' in date ? date.date.text : undefined,
    publisher: by === undefined ? undefined : { '@type': 'Organization', name: by },
    description: dcValues(r, 'description')[0],
    keywords: subjects.length === 0 ? undefined : subjects,
    inLanguage: oneOrMany(languages(r)),
    identifier:
      ids.length === 0
        ? undefined
        : ids.map((i) => defined({ '@type': 'PropertyValue', propertyID: i.scheme, value: i.uri, url: isHttpUrl(i.uri) ? i.uri : undefined })),
    isPartOf: host === undefined ? undefined : isPartOf(host),
    pageStart: host?.startPage,
    pageEnd: host?.endPage,
    license: oneOrMany(licences(r)),
    // COAR access rights: only open access is free to read; embargoed, restricted and metadata only are not.
    isAccessibleForFree: access === undefined ? undefined : access === 'open',
    url: place.landingPage,
    sameAs: oneOrMany(sameAs),
    distribution:
      types.includes('Dataset') && files.length > 0
        ? files.map((f) => defined({ '@type': 'DataDownload', contentUrl: f.href, encodingFormat: f.type }))
        : undefined,
  });
}

/**
 * Characters a JSON text may hold that the HTML parser would act on inside a
 * script element (`</script` ends it, `<!--` changes how it ends, HTML
 * 4.12.1.3), that old JavaScript parsers took as line ends (U+2028, U+2029),
 * or that are parse errors in an HTML stream (DEL, the C1 controls, U+FFFE,
 * U+FFFF). They can occur only inside JSON strings, where `\uXXXX` means the
 * same character, so the data is unchanged.
 */
const UNSAFE_IN_SCRIPT = /[<>&\u007f-\u009f\u2028\u2029\ufffe\uffff]/g;

/**
 * A JSON value as a `<script type="application/ld+json">` data block that no
 * value can break out of.
 * Example: `jsonLdScript({ name: '</script>' })` → `'<script type="application/ld+json">{"name":"\u003c/script\u003e"}</script>'`.
 */
export function jsonLdScript(value: Json): string {
  const json = JSON.stringify(value).replace(UNSAFE_IN_SCRIPT, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  return `<script type="application/ld+json">${json}</script>`;
}
