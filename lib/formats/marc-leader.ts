/**
 * What a MARC 21 bibliographic record's Leader and 008 say about the
 * resource, read by the book:
 *
 * - Leader/06 (type of record) and Leader/07 (bibliographic level) give its
 *   type, with the words the Library of Congress crosswalks use: MARC to
 *   Dublin Core (https://www.loc.gov/marc/marc2dc.html, Type) and MARC to
 *   MODS (typeOfResource, its `manuscript` and `collection` attributes):
 *
 *   | Leader/06 | word (dc:type, MODS typeOfResource) | COAR resource type |
 *   | --- | --- | --- |
 *   | a, t | text | c_18cf text |
 *   | c, d | notated music | c_18cw musical notation |
 *   | e, f | cartographic | c_12cc cartographic material |
 *   | g | moving image | c_8a7e moving image |
 *   | i | sound recording-nonmusical | c_18cc sound |
 *   | j | sound recording-musical | c_18cc sound |
 *   | k | still image | c_ecc8 still image |
 *   | m | software, multimedia | none: a computer file may be data or software |
 *   | o, p | mixed material | none |
 *   | r | three dimensional object | none |
 *
 *   MARC to MODS tells a musical (j) from a nonmusical (i) sound recording
 *   (MODS 3 typeOfResource "sound recording-musical", "-nonmusical"); COAR
 *   has one concept for both, so the word is the type's label in the model,
 *   which the writers read back (type-facts.ts `bibliographicType`).
 *   d, f and t are manuscript material (dc:type `manuscript`); Leader/07 `c`
 *   is a collection (dc:type `collection`).
 * - 008/07-10 (Date 1) is a year only when 008/06 (type of date) says the
 *   record has dates (not `b` no dates given, `n` dates unknown, `|` not
 *   coded) and it is four digits other than `9999`: a `u` stands for an
 *   unknown digit, and `9999` for a date not yet known (MARC 21, 008/06-14,
 *   "Type of date/Publication status", "Date 1").
 *
 * Pure: no I/O, no clock.
 */
import { COAR_RESOURCE_TYPE_PREFIX } from '../model/vocabularies';

/** The type a leader says: the crosswalks' word, the COAR concept where one fits, and the extra dc:type words. */
export interface LeaderType {
  readonly word: string;
  readonly coar?: string;
  readonly manuscript: boolean;
  readonly collection: boolean;
}

const TYPE_OF_RECORD: Readonly<Record<string, readonly [word: string, coar?: string]>> = {
  a: ['text', 'c_18cf'],
  t: ['text', 'c_18cf'],
  c: ['notated music', 'c_18cw'],
  d: ['notated music', 'c_18cw'],
  e: ['cartographic', 'c_12cc'],
  f: ['cartographic', 'c_12cc'],
  g: ['moving image', 'c_8a7e'],
  i: ['sound recording-nonmusical', 'c_18cc'],
  j: ['sound recording-musical', 'c_18cc'],
  k: ['still image', 'c_ecc8'],
  m: ['software, multimedia'],
  o: ['mixed material'],
  p: ['mixed material'],
  r: ['three dimensional object'],
};

/**
 * The type a full (24-position) leader says, or undefined when Leader/06 is
 * not a code of the MARC 21 Bibliographic format.
 *
 * @example leaderType('00640njm a2200205uu 4500') // { word: 'sound recording-musical', coar: 'http://purl.org/coar/resource_type/c_18cc', manuscript: false, collection: false }
 */
export function leaderType(leader: string): LeaderType | undefined {
  if (leader.length !== 24) return undefined;
  const code = leader[6] as string;
  const row = Object.hasOwn(TYPE_OF_RECORD, code) ? TYPE_OF_RECORD[code] : undefined;
  if (row === undefined) return undefined;
  const [word, coar] = row;
  return {
    word,
    ...(coar !== undefined && { coar: COAR_RESOURCE_TYPE_PREFIX + coar }),
    manuscript: code === 'd' || code === 'f' || code === 't',
    collection: leader[7] === 'c',
  };
}

/**
 * The year 008/07-10 gives, or undefined when it gives none.
 *
 * @example dateOne('100813s9999    xx ||nn s|||||||||||||| d') // undefined
 * @example dateOne('910926s1957    nyuuun              eng  ') // '1957'
 */
export function dateOne(f008: string): string | undefined {
  if (f008.length !== 40) return undefined;
  if ('bn|'.includes(f008[6] as string)) return undefined;
  const year = f008.slice(7, 11);
  return /^\d{4}$/.test(year) && year !== '9999' ? year : undefined;
}
