/**
 * Language tags as BCP 47 (RFC 5646) spells them, which Dublin Core's
 * dc:language recommends, DataCite's `language` and OpenAIRE v4 accept
 * (`xs:language`), and repositories write in their own ways: DSpace writes
 * `en_US`, others `EN-us` or ISO 639-2 `eng`. A tag is normalized to RFC
 * 5646's conventional case (section 2.1.1: language lower case, script title
 * case, region upper case) with hyphens; `eng` stays `eng` (a three-letter
 * primary subtag is a valid language subtag, and mapping it to `en` would
 * guess which code list it came from).
 *
 * Pure: no I/O.
 */

// RFC 5646 section 2.1, the langtag production (grandfathered irregular tags are not read). The
// primary subtag is two or three letters: the four-letter form is reserved and no five-to-eight-letter
// subtag is registered (IANA Language Subtag Registry), so a word like "English" is not taken for one.
const LANGTAG =
  /^(?:([a-z]{2,3}(?:-[a-z]{3}){0,3})(?:-([a-z]{4}))?(?:-([a-z]{2}|\d{3}))?((?:-(?:[a-z\d]{5,8}|\d[a-z\d]{3}))*)((?:-[\da-wyz](?:-[a-z\d]{2,8})+)*)(?:-(x(?:-[a-z\d]{1,8})+))?|(x(?:-[a-z\d]{1,8})+))$/;

/**
 * The tag in BCP 47's form, or null when it is not a well-formed language
 * tag (RFC 5646 section 2.1; underscores are read as hyphens).
 *
 * @example normalizeLanguageTag('en_US') // 'en-US'
 * @example normalizeLanguageTag('ZH-hant-tw') // 'zh-Hant-TW'
 * @example normalizeLanguageTag('eng') // 'eng'
 * @example normalizeLanguageTag('English') // null
 */
export function normalizeLanguageTag(value: string): string | null {
  const t = value.trim().replace(/_/g, '-').toLowerCase();
  const m = LANGTAG.exec(t);
  if (!m) return null;
  if (m[7] !== undefined) return m[7];
  const [, language, script, region, variants, extensions, privateUse] = m;
  let out = language as string;
  if (script !== undefined) out += `-${script.charAt(0).toUpperCase()}${script.slice(1)}`;
  if (region !== undefined) out += `-${region.toUpperCase()}`;
  out += (variants ?? '') + (extensions ?? '');
  if (privateUse !== undefined) out += `-${privateUse}`;
  return out;
}

/**
 * The primary language subtag of a tag (`en` of `en-US`), for code lists
 * that hold languages only (MARC 041, ISO 639).
 *
 * @example primaryLanguage('en-US') // 'en'
 */
export function primaryLanguage(tag: string): string {
  return (tag.split('-')[0] ?? tag).toLowerCase();
}

/**
 * Whether a value may be an `xml:lang` (XML 1.0 section 2.12; the `xs:language` pattern of XML Schema Part 2,
 * which DataCite's xml.xsd uses): letters, then hyphenated runs of up to eight letters or digits.
 *
 * @example isXmlLang('en') // true
 * @example isXmlLang('en_US') // false
 */
export function isXmlLang(value: string): boolean {
  return /^[a-zA-Z]{1,8}(-[a-zA-Z0-9]{1,8})*$/.test(value);
}
