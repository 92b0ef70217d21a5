/**
 * Resource types across vocabularies: a DataCite resourceTypeGeneral to MARC
 * Leader/06 and MODS typeOfResource, MODS typeOfResource to DCMI Type, a
 * record's type words to Leader/06, and the schema.org type of a record (the
 * sources are named in ./vocabularies.ts `VOCABULARY_VERSIONS`).
 */
import { COAR_RESOURCE_TYPE_PREFIX, COAR_TYPES, type DataCiteResourceType } from './vocabularies';

/**
 * For a record typed only by DataCite `resourceTypeGeneral`: the MARC
 * Leader/06 and MODS typeOfResource of that general type.
 *
 * @example typeOfGeneral('Software') // { leader06: 'm', typeOfResource: 'software, multimedia' }
 */
export function typeOfGeneral(general: DataCiteResourceType): { leader06: string; typeOfResource: string } {
  switch (general) {
    case 'Dataset':
    case 'Software':
    case 'ComputationalNotebook':
    case 'InteractiveResource':
    case 'Model':
    case 'Workflow':
    case 'Service':
      return { leader06: 'm', typeOfResource: 'software, multimedia' };
    case 'Image':
      return { leader06: 'k', typeOfResource: 'still image' };
    case 'Audiovisual':
      return { leader06: 'g', typeOfResource: 'moving image' };
    case 'Sound':
      return { leader06: 'i', typeOfResource: 'sound recording' };
    case 'PhysicalObject':
    case 'Instrument':
      return { leader06: 'r', typeOfResource: 'three dimensional object' };
    case 'Collection':
    case 'Other':
    case 'Event':
    case 'Award':
    case 'Project':
      return { leader06: 'p', typeOfResource: 'mixed material' };
    default:
      return { leader06: 'a', typeOfResource: 'text' };
  }
}

/**
 * MODS typeOfResource → DCMI Type (https://purl.org/dc/dcmitype/), as the
 * Library of Congress "MODS to Dublin Core Metadata Element Set Mapping"
 * (https://www.loc.gov/standards/mods/mods-dcsimple.html, typeOfResource →
 * Type, with the DCMI Type Vocabulary) maps them; every sound recording is
 * Sound, and the collection attribute is Collection.
 */
export const DCMI_OF_TYPE_OF_RESOURCE: Readonly<Record<string, string>> = {
  text: 'Text',
  cartographic: 'Image',
  'notated music': 'Text',
  'sound recording': 'Sound',
  'sound recording-musical': 'Sound',
  'sound recording-nonmusical': 'Sound',
  'still image': 'StillImage',
  'moving image': 'MovingImage',
  'three dimensional object': 'PhysicalObject',
  'software, multimedia': 'Software',
  'mixed material': 'Collection',
};

/**
 * A type word (a DCMI Type term, with or without its namespace, or a MODS
 * typeOfResource value, any case) → [MARC Leader/06, MODS typeOfResource].
 * DCMI → typeOfResource follows LC's "Dublin Core Metadata Element Set
 * Mapping to MODS Version 3" (Type: "supply a MODS enumerated typeOfResource
 * value when possible"); Leader/06 is the MARC 21 Bibliographic code of that
 * kind of material (a language material, c notated music, e cartographic, g
 * projected medium, i nonmusical sound, j musical sound, k two-dimensional
 * graphic, m computer file, p mixed materials, r three-dimensional artefact).
 */
const TYPE_WORDS: Readonly<Record<string, readonly [string, string]>> = {
  text: ['a', 'text'],
  image: ['k', 'still image'],
  stillimage: ['k', 'still image'],
  'still image': ['k', 'still image'],
  movingimage: ['g', 'moving image'],
  'moving image': ['g', 'moving image'],
  sound: ['i', 'sound recording'],
  'sound recording': ['i', 'sound recording'],
  'sound recording-nonmusical': ['i', 'sound recording-nonmusical'],
  'sound recording-musical': ['j', 'sound recording-musical'],
  physicalobject: ['r', 'three dimensional object'],
  'three dimensional object': ['r', 'three dimensional object'],
  software: ['m', 'software, multimedia'],
  'software, multimedia': ['m', 'software, multimedia'],
  interactiveresource: ['m', 'software, multimedia'],
  dataset: ['m', 'software, multimedia'],
  collection: ['p', 'mixed material'],
  'mixed material': ['p', 'mixed material'],
  cartographic: ['e', 'cartographic'],
  'notated music': ['c', 'notated music'],
};

/** MARC 21 Leader/06 of manuscript material: t manuscript language material, f manuscript cartographic, d manuscript notated music; mixed materials (p) are manuscript already. */
const MANUSCRIPT_LEADER: Readonly<Record<string, string>> = { a: 't', e: 'f', c: 'd' };

/**
 * The MARC Leader/06 and MODS typeOfResource that a record's dc:type words
 * say (the first word that names a kind of material; `manuscript`, MODS's
 * attribute of that name, makes it manuscript material), or undefined when
 * none does: an unknown type stays unknown.
 *
 * @example typeOfWords(['Photograph', 'StillImage']) // { leader06: 'k', typeOfResource: 'still image' }
 * @example typeOfWords(['Text', 'manuscript']) // { leader06: 't', typeOfResource: 'text', manuscript: true }
 */
export function typeOfWords(words: readonly string[]): { leader06: string; typeOfResource: string; manuscript?: boolean } | undefined {
  const keys = words.map((w) =>
    w
      .trim()
      .replace(/^https?:\/\/purl\.org\/dc\/dcmitype\//i, '')
      .toLowerCase(),
  );
  const found = keys.map((k) => (Object.hasOwn(TYPE_WORDS, k) ? TYPE_WORDS[k] : undefined)).find((t) => t !== undefined);
  if (found === undefined) return undefined;
  const [leader06, typeOfResource] = found;
  if (!keys.includes('manuscript')) return { leader06, typeOfResource };
  return { leader06: MANUSCRIPT_LEADER[leader06] ?? leader06, typeOfResource, manuscript: true };
}

/**
 * schema.org types (https://schema.org/docs/full.html) of the kinds of work
 * the model names, for Signposting's `type` links. Only types that say more
 * than schema.org's CreativeWork are given: DataCite Text, Other and the
 * kinds schema.org has no class for map to none.
 */
const SCHEMA_ORG_OF_GENERAL: Partial<Record<DataCiteResourceType, string>> = {
  Audiovisual: 'VideoObject',
  Book: 'Book',
  BookChapter: 'Chapter',
  Collection: 'Collection',
  ComputationalNotebook: 'SoftwareSourceCode',
  ConferencePaper: 'ScholarlyArticle',
  DataPaper: 'ScholarlyArticle',
  Dataset: 'Dataset',
  Dissertation: 'Thesis',
  Event: 'Event',
  Image: 'ImageObject',
  Journal: 'Periodical',
  JournalArticle: 'ScholarlyArticle',
  PeerReview: 'Review',
  Preprint: 'ScholarlyArticle',
  Presentation: 'PresentationDigitalDocument',
  Report: 'Report',
  Software: 'SoftwareSourceCode',
  Sound: 'AudioObject',
};

/** COAR concepts whose schema.org class is narrower than their DataCite type's (maps are DataCite Image). */
const SCHEMA_ORG_OF_COAR: Readonly<Record<string, string>> = { c_12cc: 'Map', c_12cd: 'Map' };

/** Dublin Core, DCMI Type and info:eu-repo type words → schema.org types (lower case keys). */
const SCHEMA_ORG_OF_WORD: Readonly<Record<string, string>> = {
  dataset: 'Dataset',
  software: 'SoftwareSourceCode',
  sound: 'AudioObject',
  stillimage: 'ImageObject',
  image: 'ImageObject',
  movingimage: 'VideoObject',
  collection: 'Collection',
  event: 'Event',
  article: 'ScholarlyArticle',
  'journal article': 'ScholarlyArticle',
  book: 'Book',
  bookpart: 'Chapter',
  'book part': 'Chapter',
  thesis: 'Thesis',
  doctoralthesis: 'Thesis',
  masterthesis: 'Thesis',
  bachelorthesis: 'Thesis',
  report: 'Report',
  map: 'Map',
};

const SCHEMA_ORG = 'https://schema.org/';

/**
 * The schema.org type URL of a COAR resource type concept or a DataCite
 * resourceTypeGeneral, or null when schema.org has nothing narrower than
 * CreativeWork for it.
 *
 * @example schemaOrgTypeOf({ coar: 'http://purl.org/coar/resource_type/c_db06', general: 'Dissertation' }) // 'https://schema.org/Thesis'
 */
export function schemaOrgTypeOf(t: { readonly coar?: string; readonly general: DataCiteResourceType }): string | null {
  const coar = t.coar?.startsWith(COAR_RESOURCE_TYPE_PREFIX) ? SCHEMA_ORG_OF_COAR[t.coar.slice(COAR_RESOURCE_TYPE_PREFIX.length)] : undefined;
  const name = coar ?? SCHEMA_ORG_OF_GENERAL[t.general];
  return name === undefined ? null : `${SCHEMA_ORG}${name}`;
}

/**
 * The schema.org type URL of a free-text type value (a DCMI Type such as
 * `Dataset`, a word such as `journal article`, an info:eu-repo/semantics
 * term, or a COAR resource type URI), or null when it is not one known here.
 * `Text` maps to nothing: it says no more than schema.org's CreativeWork.
 *
 * @example schemaOrgType('StillImage') // 'https://schema.org/ImageObject'
 */
export function schemaOrgType(value: string): string | null {
  const v = value.trim();
  const coar = COAR_TYPES.get(v);
  if (coar) return schemaOrgTypeOf({ coar: coar.uri, general: coar.datacite });
  const word = v
    .replace(/^info:eu-repo\/semantics\//i, '')
    .replace(/^https?:\/\/purl\.org\/dc\/dcmitype\//i, '')
    .toLowerCase();
  const t = Object.hasOwn(SCHEMA_ORG_OF_WORD, word) ? SCHEMA_ORG_OF_WORD[word] : undefined;
  return t === undefined ? null : `${SCHEMA_ORG}${t}`;
}
