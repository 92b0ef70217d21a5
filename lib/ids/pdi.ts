/**
 * Persistent Document Identifiers, `urn:pdi` (draft-mallery-urn-pdi-00,
 * specs/urn-pdi-persistent-document-identifiers.txt): parsing and validation
 * of the whole grammar (section 1.2), the MUSTs of the text, the
 * lexical-equivalence canonical form (3.6.4), and minting as pure functions
 * (the store keeps the counters).
 *
 * Readings of the grammar, where its ABNF says less or other than it means:
 * - `component`, `unique-id`, `format` (extension-token), `position-specifier`
 *   are written as single characters in the ABNF; the examples (`oma`,
 *   `1234`, `gif`) show one or more are meant.
 * - `iso-country` is `2*alpha` in the ABNF but section 2.2 says the rightmost
 *   component MUST be a two-letter ISO 3166 code: exactly two letters.
 * - year is four or more digits; month and day are two digits and, with the
 *   year, must form a real calendar date (2.3: the date of minting).
 * - `version` is a positive integer greater than 0 (2.6), written without
 *   leading zeros.
 * - Both the URN form `urn:pdi://…` (section 1) and the URL form `pdi://…`
 *   (3.8) are accepted; the canonical form keeps the form it was given in.
 *
 * MUSTs checked: reserved characters are escaped inside components (1.2.5);
 * a fragment needs a format and a version (2.5, 2.6); a citation needs them
 * on the citing PDI (2.6); the position schemes have the arity and shapes of
 * section 3.4, start ≤ end for intervals; temporal schemes are not mixed.
 * Section 2.6's examples `pdi://oma.eop.gov/1997/09/01.html.1` lack the
 * unique-id segment and a two-letter country, and the image/audio/byte
 * examples of 3.4 lack the version that 2.6 requires for fragments: by the
 * grammar and those MUSTs they are invalid, and the tests say so.
 *
 * Pure: no I/O, no clock (minting takes the date and the next serial).
 */

/** Fragment schemes defined by section 3.4 (others are extensions, `alpha-hyphen`). */
export const FRAGMENT_SCHEMES = ['char', 'elt', 'name', 'rect', 'msec', 'sec', 'crop', 'byte'] as const;

/** One position of a fragment or citation: a coordinate list or a single token. */
export type PdiPosition = { readonly kind: 'token'; readonly value: string } | { readonly kind: 'tuple'; readonly values: readonly string[] };

/** A parsed fragment specifier (1.2.3). `scheme` is as written (null when omitted). */
export interface PdiFragment {
  readonly scheme: string | null;
  readonly positions: readonly PdiPosition[];
}

/** A parsed citation specifier (1.2.2): the origin position in the citing PDI, and the cited PDI. */
export interface PdiCitation {
  readonly origin: PdiPosition;
  readonly cited: ParsedPdi;
}

/** A parsed PDI. Fields are as written; `canonical` is the lexical-equivalence form (3.6.4). */
export interface ParsedPdi {
  readonly ok: true;
  readonly scheme: 'pdi';
  /** Whether the `urn:` prefix was present (URN form) or not (URL form, 3.8). */
  readonly urn: boolean;
  readonly series: string;
  readonly country: string;
  readonly year: string;
  readonly month: string;
  readonly day: string;
  readonly uniqueId: string;
  readonly format: string | null;
  readonly version: string | null;
  readonly fragment: PdiFragment | null;
  readonly citation: PdiCitation | null;
  /** True when any of year, month, day, unique-id, format or version is `*`. */
  readonly hasWildcard: boolean;
  readonly canonical: string;
}

/** A failed parse with every fault found. */
export interface InvalidPdi {
  readonly ok: false;
  readonly errors: string[];
}

export const WILDCARD = '*';
// 1.2.4: RESERVED = "%" / "." / "," / "/" / "#" / "*" / "@" / "=" / "?" / "+" (the separators the patterns below keep out of names)
// 1.2.4: OTHER = "(" / ")" / "-" / ":" / ";" / "$" / "_" / "!" / "'"
const OTHER = "()-:;$_!'";
const ESC = '%[0-9A-Fa-f]{2}';
const UNIQUE_ID_RE = new RegExp(`^(?:[A-Za-z0-9()\\-:;$_!']|${ESC})+$`);
const FORMAT_RE = new RegExp(`^(?:[A-Za-z0-9-]|${ESC})+$`);
const COMPONENT_RE = /^[A-Za-z0-9-]+$/;
const COUNTRY_RE = /^[A-Za-z]{2}$/;
const DIGITS_RE = /^[0-9]+$/;
const ALPHAS_RE = /^[A-Za-z]+$/;
const ALPHA_HYPHEN_RE = /^[A-Za-z-]+$/;
const ALPHA_HYPHEN_DIGITS_RE = /^[A-Za-z0-9-]+$/;
// element-name = urn-chars with reserved escaped; parentheses are left to coordinates.
const ELEMENT_NAME_RE = new RegExp(`^(?:[A-Za-z0-9\\-:;$_!']|${ESC})+$`);

/**
 * Parses and validates a PDI in URN (`urn:pdi://…`) or URL (`pdi://…`)
 * form: the grammar of section 1.2 and the MUSTs of sections 1.2.5, 2.2,
 * 2.3, 2.5, 2.6 and 3.4 (see the module comment for the readings taken).
 * Returns every fault found where the structure allows, and the
 * lexical-equivalence canonical form on success.
 *
 * @example parsePdi('pdi://oma.eop.gov.us/1997/09/01/1.text.1#char=37,51').ok // true
 */
export function parsePdi(s: string): ParsedPdi | InvalidPdi {
  const lower = s.slice(0, 8).toLowerCase();
  let urn: boolean;
  let rest: string;
  // 1 and 1.1: "urn:" and the NID "pdi" are case-insensitive.
  if (lower.startsWith('urn:pdi:')) {
    urn = true;
    rest = s.slice(8);
  } else if (lower.startsWith('pdi:')) {
    urn = false;
    rest = s.slice(4);
  } else return { ok: false, errors: ['a PDI starts with "urn:pdi:" or "pdi:"'] };
  return parseNss(rest, urn);
}

function parseNss(nss: string, urn: boolean): ParsedPdi | InvalidPdi {
  const errors: string[] = [];
  if (!nss.startsWith('//')) return { ok: false, errors: ['the namespace-specific string must start with "//" (1.2.1)'] };
  const body = nss.slice(2);
  // Reserved characters are escaped inside components (1.2.5), so the first
  // literal "@" or "#" ends the resource identifier.
  const cut = body.search(/[@#]/);
  const resource = cut < 0 ? body : body.slice(0, cut);
  const tail = cut < 0 ? '' : body.slice(cut);

  const parts = resource.split('/');
  if (parts.length !== 5) {
    errors.push(`the resource identifier must be "document-series/year/month/day/specifier" (1.2.1), found ${parts.length} "/"-separated parts`);
    return { ok: false, errors };
  }
  const [seriesRaw, year, month, day, specifier] = parts as [string, string, string, string, string];

  // Document series (1.2.1, 2.2).
  const labels = seriesRaw.split('.');
  const country = labels[labels.length - 1] ?? '';
  if (labels.length < 2) errors.push(`document series "${seriesRaw}" needs at least one component and a country code (1.2.1)`);
  for (const c of labels.slice(0, -1)) {
    if (!COMPONENT_RE.test(c)) errors.push(`document series component "${c}" may contain only letters, digits and "-" (1.2.1)`);
  }
  if (labels.length >= 2 && !COUNTRY_RE.test(country)) {
    errors.push(`the rightmost component of the document series, "${country}", must be a two-letter ISO 3166 country code (2.2)`);
  }

  // ISO date (1.2.1, 2.3).
  errors.push(...dateErrors(year, month, day));

  // Specifier (1.2.1): unique-id ["." format ["." version]].
  const spec = specifier.split('.');
  const uniqueId = spec[0] ?? '';
  const format = spec.length > 1 ? (spec[1] as string) : null;
  const version = spec.length > 2 ? (spec[2] as string) : null;
  if (spec.length > 3) errors.push(`specifier "${specifier}" has more than unique-id, format and version; "." must be escaped as %2E inside them (1.2.5)`);
  if (uniqueId !== WILDCARD && !UNIQUE_ID_RE.test(uniqueId)) {
    errors.push(
      uniqueId === ''
        ? 'the unique-id is empty (1.2.1)'
        : `unique-id "${uniqueId}" may contain only letters, digits, ${OTHER} and %XX escapes; reserved characters must be escaped (1.2.5)`,
    );
  }
  if (format !== null && format !== WILDCARD && !FORMAT_RE.test(format)) {
    errors.push(format === '' ? 'the format is empty (1.2.1)' : `format "${format}" may contain only letters, digits, "-" and %XX escapes (1.2.1, 2.5)`);
  }
  if (version !== null && version !== WILDCARD && !/^[1-9][0-9]*$/.test(version)) {
    errors.push(`version "${version}" must be a positive integer greater than 0, without leading zeros (2.6)`);
  }

  let fragment: PdiFragment | null = null;
  let citation: PdiCitation | null = null;
  if (tail.startsWith('#')) {
    const f = parseFragment(tail.slice(1), format);
    if ('errors' in f) errors.push(...f.errors);
    else fragment = f;
    // 2.5 and 2.6: fragments need a format and a version.
    if (format === null || format === WILDCARD) errors.push('a PDI with a fragment must have a format (2.5)');
    if (version === null || version === WILDCARD) errors.push('a PDI with a fragment must have a version (2.6)');
  } else if (tail.startsWith('@')) {
    const eq = tail.indexOf('=');
    if (eq < 0) {
      errors.push('a citation is "@" origin-position "=" pdi (1.2.2)');
    } else {
      const originText = tail.slice(1, eq);
      const origin = parsePosition(originText);
      if (origin === null) errors.push(`citation origin position "${originText}" is not a position (1.2.2)`);
      const citedText = tail.slice(eq + 1);
      // 1.2.2: the cited identifier is a `pdi`, i.e. "pdi:" nss (no "urn:").
      const cited =
        citedText.slice(0, 4).toLowerCase() === 'pdi:' ? parseNss(citedText.slice(4), false) : { ok: false as const, errors: ['must start with "pdi:"'] };
      if (!cited.ok) errors.push(...cited.errors.map((e) => `cited PDI: ${e}`));
      if (origin !== null && cited.ok) citation = { origin, cited };
    }
    // 2.6: a PDI containing a fragment citation must carry a version (and a version needs a format).
    if (format === null || format === WILDCARD) errors.push('a PDI with a citation must have a format (2.5, 2.6)');
    if (version === null || version === WILDCARD) errors.push('a PDI with a citation must have a version (2.6)');
  }

  if (errors.length > 0) return { ok: false, errors };
  const hasWildcard = [year, month, day, uniqueId, format, version].includes(WILDCARD);
  const parsed: Omit<ParsedPdi, 'canonical'> = {
    ok: true,
    scheme: 'pdi',
    urn,
    series: seriesRaw,
    country,
    year,
    month,
    day,
    uniqueId,
    format,
    version,
    fragment,
    citation,
    hasWildcard,
  };
  return { ...parsed, canonical: canonicalize(parsed) };
}

function dateErrors(year: string, month: string, day: string): string[] {
  const errors: string[] = [];
  if (year !== WILDCARD && !/^[0-9]{4,}$/.test(year)) errors.push(`year "${year}" must be four or more digits or "*" (1.2.1)`);
  if (month !== WILDCARD && !(/^[0-9]{2}$/.test(month) && +month >= 1 && +month <= 12)) errors.push(`month "${month}" must be 01 to 12 or "*" (1.2.1)`);
  if (day !== WILDCARD) {
    if (!/^[0-9]{2}$/.test(day) || +day < 1) {
      errors.push(`day "${day}" must be two digits from 01 or "*" (1.2.1)`);
    } else if (errors.length === 0) {
      // With a wildcard year, February may have 29 days; with a wildcard month, 31.
      const max = month === WILDCARD ? 31 : year === WILDCARD && month === '02' ? 29 : daysInMonth(+year, +month);
      if (+day > max) errors.push(`day "${day}" does not exist in ${year}-${month} (2.3: a calendar date)`);
    }
  }
  return errors;
}

function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/** Splits a fragment or citation position list at top-level commas (commas inside parentheses belong to coordinates). */
function splitTopLevel(s: string): string[] | null {
  const out: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < s.length; i++) {
    const ch = s[i];
    if (ch === '(') depth++;
    else if (ch === ')') {
      depth--;
      if (depth < 0) return null;
    } else if (ch === ',' && depth === 0) {
      out.push(s.slice(start, i));
      start = i + 1;
    }
  }
  if (depth !== 0) return null;
  out.push(s.slice(start));
  return out;
}

/** 1.2.3 POSITION: a token (digits, alphas, element name) or a parenthesized list of alphadigits (2-dim-coordinate, ext-position). */
function parsePosition(s: string): PdiPosition | null {
  if (s.startsWith('(')) {
    if (!s.endsWith(')')) return null;
    const values = s.slice(1, -1).split(',');
    if (!values.every((v) => DIGITS_RE.test(v) || ALPHAS_RE.test(v))) return null;
    return { kind: 'tuple', values };
  }
  return ELEMENT_NAME_RE.test(s) ? { kind: 'token', value: s } : null;
}

const isDigits = (p: PdiPosition | undefined): boolean => p?.kind === 'token' && DIGITS_RE.test(p.value);
const isCoordinate = (p: PdiPosition | undefined): boolean => p?.kind === 'tuple' && p.values.length === 2 && p.values.every((v) => DIGITS_RE.test(v));
const num = (p: PdiPosition | undefined): number => (p?.kind === 'token' ? Number(p.value) : NaN);

function defaultSchemeFor(format: string | null): string | null {
  // 3.4.1, 3.4.2: text, html, sgml and xml default to char positions.
  const f = format?.toLowerCase();
  return f === 'text' || f === 'html' || f === 'sgml' || f === 'xml' ? 'char' : null;
}

function parseFragment(s: string, format: string | null): PdiFragment | { errors: string[] } {
  const eq = s.indexOf('=');
  let scheme: string | null = null;
  let list = s;
  if (eq >= 0) {
    scheme = s.slice(0, eq);
    list = s.slice(eq + 1);
    if (!ALPHA_HYPHEN_RE.test(scheme)) return { errors: [`fragment scheme "${scheme}" must be letters and "-" (1.2.3)`] };
  }
  const items = splitTopLevel(list);
  if (items === null) return { errors: [`fragment "${s}" has unbalanced parentheses`] };
  const positions: PdiPosition[] = [];
  for (const item of items) {
    const p = parsePosition(item);
    if (p === null) return { errors: [`fragment position "${item}" is not a position (1.2.3); reserved characters must be escaped (1.2.5)`] };
    positions.push(p);
  }
  const effective = (scheme ?? defaultSchemeFor(format))?.toLowerCase() ?? null;
  const e = positionErrors(effective, positions);
  return e.length > 0 ? { errors: e } : { scheme, positions };
}

function interval(name: string, ps: readonly PdiPosition[], what: string): string[] {
  if (ps.length !== 2 || !isDigits(ps[0]) || !isDigits(ps[1])) return [`a ${name} fragment is two ${what} "start,end" (3.4)`];
  return num(ps[0]) <= num(ps[1]) ? [] : [`a ${name} fragment's start must not be after its end (3.4)`];
}

function positionErrors(scheme: string | null, ps: readonly PdiPosition[]): string[] {
  switch (scheme) {
    case 'char':
      return interval('char', ps, 'character positions');
    case 'byte':
      return interval('byte', ps, 'byte positions');
    case 'sec':
    case 'msec':
      return interval(scheme, ps, 'times');
    case 'elt':
      if (ps.length !== 2 || !isDigits(ps[0]) || !isDigits(ps[1])) return ['an elt fragment is two element positions "start,end" (3.4.2)'];
      return num(ps[0]) <= num(ps[1]) ? [] : ["an elt fragment's start must not be after its end (3.4.2)"];
    case 'name':
      // 3.4.2: both ends use the same scheme, element names here.
      return ps.length === 2 && ps.every((p) => p.kind === 'token') ? [] : ['a name fragment is two element names "start,end" (3.4.2)'];
    case 'rect':
      // 3.4.5 (image): start-coordinate "," end-coordinate ["," frame]
      if ((ps.length === 2 || ps.length === 3) && isCoordinate(ps[0]) && isCoordinate(ps[1]) && (ps.length === 2 || isDigits(ps[2]))) return [];
      return ['a rect fragment is "(x,y),(x,y)" with an optional frame number (3.4.5)'];
    case 'crop': {
      // 3.4.5 (video): time-position-scheme "," start "," end ["," coord "," coord]
      const t = ps[0];
      if (!(t?.kind === 'token' && ALPHA_HYPHEN_DIGITS_RE.test(t.value)))
        return ['a crop fragment starts with a time position scheme such as sec or msec (3.4.5)'];
      if (!((ps.length === 3 || ps.length === 5) && isDigits(ps[1]) && isDigits(ps[2]) && (ps.length === 3 || (isCoordinate(ps[3]) && isCoordinate(ps[4]))))) {
        return ['a crop fragment is "scheme,start,end" with an optional "(x,y),(x,y)" cropping (3.4.5)'];
      }
      return num(ps[1]) <= num(ps[2]) ? [] : ["a crop fragment's start time must not be after its end (3.4.5)"];
    }
    default:
      // Extension schemes and omitted schemes of unknown default: the generic grammar only.
      return ps.length > 0 ? [] : ['a fragment needs at least one position (1.2.3)'];
  }
}

// 3.6.4 step 1: escapes of characters that are URN-CHARS but not RESERVED are
// unescaped (alpha, digit, OTHER); step 2: remaining escapes get lowercase hex.
function canonicalEscapes(s: string): string {
  return s.replace(/%([0-9A-Fa-f]{2})/g, (_m, h: string) => {
    const ch = String.fromCharCode(parseInt(h, 16));
    if (/^[A-Za-z0-9]$/.test(ch) || OTHER.includes(ch)) return ch;
    return '%' + h.toLowerCase();
  });
}

function positionText(p: PdiPosition): string {
  return p.kind === 'tuple' ? `(${p.values.join(',')})` : p.value;
}

function canonicalize(p: Omit<ParsedPdi, 'canonical'>): string {
  return (p.urn ? 'urn:' : '') + 'pdi:' + canonicalNss(p);
}

function canonicalNss(p: Omit<ParsedPdi, 'canonical' | 'urn'>): string {
  // Step 3: every component except unique-id and positions is downcased.
  let out = `//${p.series.toLowerCase()}/${p.year}/${p.month}/${p.day}/${canonicalEscapes(p.uniqueId)}`;
  if (p.format !== null) out += '.' + canonicalEscapes(p.format).toLowerCase();
  if (p.version !== null) out += '.' + p.version;
  if (p.fragment) {
    const scheme = p.fragment.scheme?.toLowerCase() ?? null;
    const positions = p.fragment.positions.map((pos, i) => {
      const text = canonicalEscapes(positionText(pos));
      // Step 5: positions are downcased where the scheme makes them
      // case-insensitive: only crop's time position scheme (3.3: position
      // schemes are case-insensitive); numbers have no case; names are case-sensitive.
      return scheme === 'crop' && i === 0 ? text.toLowerCase() : text;
    });
    out += '#' + (scheme !== null ? scheme + '=' : '') + positions.join(',');
  } else if (p.citation) {
    out += '@' + canonicalEscapes(positionText(p.citation.origin)) + '=pdi:' + canonicalNss(p.citation.cited);
  }
  // Step 4 (foreign identifiers' own canonical forms) is left to applications
  // that know the encapsulated scheme (2.4.1: all others treat it as opaque).
  return out;
}

/**
 * Whether a string is a valid PDI (URN or URL form).
 *
 * @example isValidPdi('pdi://oma.eop.gov.us/1997/09/01/1.text.1') // true
 */
export function isValidPdi(s: string): boolean {
  return parsePdi(s).ok;
}

/**
 * The lexical-equivalence canonical form of a PDI (3.6.4): escapes of
 * unreserved URN characters undone, remaining escapes in lowercase hex, all
 * components but the unique-id and positions downcased. Throws a
 * `RangeError` for an invalid PDI.
 *
 * @example canonicalPdi('PDI://OMA.eop.gov.US/1994/10/20/http%3a%2F.HTML.1') // 'pdi://oma.eop.gov.us/1994/10/20/http:%2f.html.1'
 */
export function canonicalPdi(s: string): string {
  const p = parsePdi(s);
  if (!p.ok) throw new RangeError(p.errors.join('; '));
  return p.canonical;
}

/**
 * Whether two PDIs are lexically equivalent (3.6.4): their canonical forms
 * are equal once the `urn:` prefix is set aside (3.8: the URL form differs
 * only in that prefix). Wildcards compare as themselves, so two PDIs are
 * equal only with wildcards in the same positions. Invalid PDIs are equal to
 * nothing.
 *
 * @example pdiEquivalent('pdi://a.us/1997/09/01/1.TEXT.1', 'urn:pdi://A.US/1997/09/01/1.text.1') // true
 */
export function pdiEquivalent(a: string, b: string): boolean {
  const pa = parsePdi(a);
  const pb = parsePdi(b);
  if (!pa.ok || !pb.ok) return false;
  const strip = (c: string): string => (c.startsWith('urn:') ? c.slice(4) : c);
  return strip(pa.canonical) === strip(pb.canonical);
}

/**
 * The canonical form of a document series (lowercased, 3.6.4 step 3), for
 * keying the store's daily counters so `Pubs.Example.US` and
 * `pubs.example.us` share one counter. Throws a `RangeError` when invalid.
 *
 * @example canonicalSeries('Pubs.Example.US') // 'pubs.example.us'
 */
export function canonicalSeries(series: string): string {
  const p = parsePdi(`pdi://${series}/2000/01/01/1`);
  if (!p.ok) throw new RangeError(p.errors.filter((e) => e.includes('series') || e.includes('component')).join('; ') || `invalid document series "${series}"`);
  return p.series.toLowerCase();
}

/**
 * The GMT calendar date of an instant as `YYYY-MM-DD`, the date a PDI minted
 * at that instant carries (2.3). The caller passes the instant; nothing here
 * reads the clock.
 *
 * @example gmtDate(new Date('2024-03-01T23:30:00-05:00')) // '2024-03-02'
 */
export function gmtDate(instant: Date): string {
  return instant.toISOString().slice(0, 10);
}

/**
 * The next version of a minted PDI: the same PDI with its version
 * incremented by one (2.1: a new version MUST increment the version; PDIs
 * are never retracted, so versions never go back). Fragments and citations
 * are dropped: a version names a whole resource. Throws a `RangeError` for
 * an invalid PDI, one with wildcards, or one without a format (a version
 * needs a format, 2.6). A PDI without a version is version 1 (2.6).
 *
 * @example nextPdiVersion('urn:pdi://pubs.example.us/2024/03/01/1.html.1') // 'urn:pdi://pubs.example.us/2024/03/01/1.html.2'
 */
export function nextPdiVersion(pdi: string): string {
  const p = parsePdi(pdi);
  if (!p.ok) throw new RangeError(p.errors.join('; '));
  if (p.hasWildcard) throw new RangeError('a PDI with wildcards has no next version');
  if (p.format === null) throw new RangeError('a PDI without a format cannot carry a version (2.6)');
  const v = BigInt(p.version ?? '1') + 1n;
  return canonicalPdi(`${p.urn ? 'urn:' : ''}pdi://${p.series}/${p.year}/${p.month}/${p.day}/${p.uniqueId}.${p.format}.${v}`);
}

/**
 * Checks that a new version of a PDI follows the latest issued one: same
 * resource (series, date, unique-id, format) and a strictly higher version.
 * Returns an error message, or `null` when the new version may be issued.
 * The store calls it before recording a version so versions never go back.
 *
 * @example checkVersionIncrement('pdi://a.us/2024/03/01/1.html.2', 'pdi://a.us/2024/03/01/1.html.1') // 'version 1 does not follow version 2: PDI versions never go back (2.1)'
 */
export function checkVersionIncrement(latest: string, next: string): string | null {
  const a = parsePdi(latest);
  const b = parsePdi(next);
  if (!a.ok) return `latest PDI is invalid: ${a.errors.join('; ')}`;
  if (!b.ok) return `new PDI is invalid: ${b.errors.join('; ')}`;
  const key = (p: ParsedPdi): string => canonicalPdi(`pdi://${p.series}/${p.year}/${p.month}/${p.day}/${p.uniqueId}`);
  if (key(a) !== key(b)) return 'the new PDI names another resource (series, date or unique-id differ)';
  if (b.version === null || b.version === WILDCARD || b.format === null || b.format === WILDCARD)
    return 'the new PDI must carry a format and a version (3.6.1)';
  const va = BigInt(a.version === null || a.version === WILDCARD ? '1' : a.version);
  const vb = BigInt(b.version);
  return vb > va ? null : `version ${vb} does not follow version ${va}: PDI versions never go back (2.1)`;
}
