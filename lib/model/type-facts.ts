/**
 * What type a record is, in each vocabulary a reader asks for: the COAR
 * resource type (from the model, DataCite's general type, or dc:type words and
 * labels), OpenAIRE's four kinds, the bibliographic type and schema.org's
 * (./facts.ts has the record's other facts).
 */
import type { RecordFields } from './record';
import { COAR_RESOURCE_TYPE_PREFIX, COAR_OF_DATACITE_GENERAL, COAR_TYPES, type CoarType, type OpenAireResourceType } from './vocabularies';
import { schemaOrgType, schemaOrgTypeOf, typeOfGeneral, typeOfWords } from './type-crosswalks';
import { dcValues } from './facts';

/** The COAR row of the record's resource type, when it is one of the known COAR types. @example coarType(record)?.datacite // 'JournalArticle' for c_6501 */
export function coarType(record: RecordFields): CoarType | undefined {
  const c = record.resourceType?.coar;
  return c === undefined ? undefined : COAR_TYPES.get(c);
}

/**
 * The COAR resource type (suffix) of a type word that names one, for a
 * record typed only in Dublin Core: the info:eu-repo publication types of the
 * DRIVER / OpenAIRE 3.0 guidelines, each to the COAR concept the OpenAIRE
 * Guidelines v4 give as its successor (Resource Type, "info:eu-repo" column);
 * the DCMI Types that name a COAR concept; and COAR's own labels.
 */
const COAR_OF_WORD: Readonly<Record<string, string>> = {
  'info:eu-repo/semantics/article': 'c_6501',
  'info:eu-repo/semantics/bachelorthesis': 'c_7a1f',
  'info:eu-repo/semantics/masterthesis': 'c_bdcc',
  'info:eu-repo/semantics/doctoralthesis': 'c_db06',
  'info:eu-repo/semantics/book': 'c_2f33',
  'info:eu-repo/semantics/bookpart': 'c_3248',
  'info:eu-repo/semantics/review': 'c_efa0',
  'info:eu-repo/semantics/conferenceobject': 'c_c94f',
  'info:eu-repo/semantics/lecture': 'c_8544',
  'info:eu-repo/semantics/workingpaper': 'c_8042',
  'info:eu-repo/semantics/preprint': 'c_816b',
  'info:eu-repo/semantics/report': 'c_93fc',
  'info:eu-repo/semantics/annotation': 'c_1162',
  'info:eu-repo/semantics/contributiontoperiodical': 'c_3e5a',
  'info:eu-repo/semantics/patent': 'c_15cd',
  'info:eu-repo/semantics/other': 'c_1843',
  dataset: 'c_ddb1',
  software: 'c_5ce6',
  stillimage: 'c_ecc8',
  image: 'c_c513',
  movingimage: 'c_8a7e',
  sound: 'c_18cc',
  text: 'c_18cf',
};

/** The COAR types by their labels, for a dc:type that is one. */
const COAR_OF_LABEL: ReadonlyMap<string, CoarType> = new Map([...COAR_TYPES.values()].map((c) => [c.label, c]));

/**
 * The COAR row of the record's resource type: its typed COAR type, else the
 * COAR concept of its DataCite resourceTypeGeneral, else the first dc:type
 * that names one (a COAR URI, a COAR label, an info:eu-repo
 * publication type or a DCMI Type: `COAR_OF_WORD`). What OpenAIRE v4's
 * Resource Type (M) is written from; a record whose words name none has none
 * (never guessed).
 *
 * @example coarTypeOfRecord({ dc: { type: ['info:eu-repo/semantics/article'] } })?.label // 'journal article'
 */
export function coarTypeOfRecord(record: RecordFields): CoarType | undefined {
  const typed = coarType(record);
  if (typed !== undefined) return typed;
  // A DataCite type names its COAR concept (COAR Resource Types 3.2 to DataCite, vocabularies.ts `COAR_OF_DATACITE_GENERAL`).
  if (record.resourceType !== undefined) return COAR_TYPES.get(COAR_RESOURCE_TYPE_PREFIX + COAR_OF_DATACITE_GENERAL[record.resourceType.general]);
  for (const v of dcValues(record, 'type')) {
    const t = v.trim();
    const key = t.toLowerCase().replace(/^https?:\/\/purl\.org\/dc\/dcmitype\//, '');
    const found =
      COAR_TYPES.get(t.replace(/^https:/, 'http:')) ??
      COAR_OF_LABEL.get(key) ??
      (Object.hasOwn(COAR_OF_WORD, key) ? COAR_TYPES.get(COAR_RESOURCE_TYPE_PREFIX + COAR_OF_WORD[key]) : undefined);
    if (found !== undefined) return found;
  }
  return undefined;
}

/**
 * A label that names a finer kind of the COAR type's material: MODS's
 * "sound recording-musical" and "-nonmusical" within COAR's one concept of
 * sound (MARC Leader/06 j and i, ../formats/marc-leader.ts), with their own
 * Leader/06. Undefined for any other label.
 */
function refinedBy(c: { readonly typeOfResource?: string }, label: string | undefined): { leader06: string; typeOfResource: string } | undefined {
  const words = label === undefined || c.typeOfResource === undefined ? undefined : typeOfWords([label]);
  return words !== undefined && words.typeOfResource.startsWith(`${c.typeOfResource}-`) ? words : undefined;
}

/**
 * MARC Leader/06 and MODS typeOfResource of the record: from its COAR type
 * (a finer kind its label names: `refinedBy`),
 * else its DataCite type, else the DCMI Type or MODS typeOfResource words of
 * its dc:type (type-crosswalks.ts `typeOfWords`). A record that says no type has
 * no typeOfResource (a type is never invented); its Leader/06 is `a`, the
 * position being mandatory and `a` the code MARC records carry by default.
 *
 * @example bibliographicType({ dc: { type: ['StillImage'] } }) // { leader06: 'k', typeOfResource: 'still image' }
 * @example bibliographicType({ dc: {} }) // { leader06: 'a' }
 */
export function bibliographicType(record: RecordFields): { leader06: string; typeOfResource?: string; manuscript?: boolean } {
  const c = coarType(record);
  if (c) return refinedBy(c, record.resourceType?.label) ?? c;
  if (record.resourceType) return typeOfGeneral(record.resourceType.general);
  return typeOfWords(dcValues(record, 'type')) ?? { leader06: 'a' };
}

/**
 * The record's OpenAIRE resource type (literature, dataset, software, other research product): from its
 * COAR type, else its DataCite type, else its dc:type words.
 *
 * @example openAireType({ dc: { type: ['Dataset'] } }) // 'dataset'
 */
export function openAireType(r: RecordFields): OpenAireResourceType {
  const coar = r.resourceType?.coar;
  const known = coar === undefined ? undefined : COAR_TYPES.get(coar);
  if (known) return known.openaire;
  const g = r.resourceType?.general;
  if (g === undefined) {
    // A Dublin Core record: a dataset or software when its dc:type says so (DCMI Type, info:eu-repo), else text.
    const words = (r.dc.type ?? []).map((t) =>
      t
        .trim()
        .toLowerCase()
        .replace(/^info:eu-repo\/semantics\//, ''),
    );
    if (words.includes('dataset')) return 'dataset';
    if (words.includes('software')) return 'software';
    return 'literature';
  }
  if (g === 'Dataset') return 'dataset';
  if (g === 'Software' || g === 'ComputationalNotebook') return 'software';
  return typeOfGeneral(g).leader06 === 'a' ? 'literature' : 'other research product';
}

/**
 * The schema.org types of the work (URLs), known ones only: of its resource
 * type when it has one, else of each `dc:type` value (a DCMI Type, an
 * info:eu-repo term, a COAR URI, a common word). Empty when nothing narrower
 * than CreativeWork is known.
 *
 * @example schemaOrgTypes({ dc: { type: ['Dataset', 'Text'] } }) // ['https://schema.org/Dataset']
 */
export function schemaOrgTypes(r: RecordFields): string[] {
  const found = r.resourceType !== undefined ? [schemaOrgTypeOf(r.resourceType)] : dcValues(r, 'type').map(schemaOrgType);
  return [...new Set(found.filter((t): t is string => t !== null))];
}

/** The record's COAR resource type URI: the typed one, else a `dc:type` value that is one. @example coarResourceType({ dc: { type: ['http://purl.org/coar/resource_type/c_6501'] } }) // 'http://purl.org/coar/resource_type/c_6501' */
export function coarResourceType(r: RecordFields): string | undefined {
  return (
    r.resourceType?.coar ??
    dcValues(r, 'type')
      .map((v) => v.trim())
      .find((v) => v.startsWith(COAR_RESOURCE_TYPE_PREFIX))
  );
}
