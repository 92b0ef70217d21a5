/**
 * Sets by rule: a set whose membership is a predicate over the typed record
 * (lib/model/record.ts) rather than a list the records name. The
 * repository configuration declares them beside static sets (`sets:` in the
 * configuration file, server/config.ts); ./parse.ts parses and checks those
 * declarations (an unknown field, an unknown set, a cycle of sets referring
 * to each other) and this module evaluates them.
 *
 * A rule is a YAML mapping with one key:
 *
 * | key | matches a record whose … |
 * | --- | --- |
 * | `resourceType: [v, …]` | resource type is one of: a COAR URI, a DataCite resourceTypeGeneral, or an OpenAIRE v4 type (`literature`, `dataset`, `software`, `other research product`) |
 * | `accessRights: [v, …]` | access right is one of `open`, `embargoed`, `restricted`, `metadataOnly` |
 * | `license: [v, …]` | licence URI is one of these; a value ending in `*` is a prefix |
 * | `hasDoi: true\|false` | has (or has not) a DOI |
 * | `hasFile: true\|false` | has (or has not) a file |
 * | `funded: true\|false` | names (or does not name) a funded project: a funding reference with an award, or an `info:eu-repo/grantAgreement/` relation |
 * | `language: [v, …]` | language is one of these ISO 639 codes (a BCP 47 tag by its primary subtag: `en-US` is `en`) |
 * | `subject: {scheme, value?}` | has a `dc:subject` written `scheme:value` (`ddc:004`); `value` ending in `*` is a prefix |
 * | `issued: {from?, until?}` | issued date (or publication year) lies in the range, both ends inclusive, each `YYYY`, `YYYY-MM` or `YYYY-MM-DD` |
 * | `inSet: spec` | is in that set (static or by rule), or in one of its descendants |
 * | `all: [rule, …]` / `any: [rule, …]` / `not: rule` | every / some / not |
 *
 * Ready-made definitions (`preset:`) carry the rule of a guideline; see
 * {@link PRESETS}. A family preset (`ddc`) is one set per class found.
 *
 * Pure: no I/O, no clock.
 */
import { accessRightOf, hasDoi, isFunded, publicationYear } from '../model/facts';
import { openAireType } from '../model/type-facts';
import type { RecordFields } from '../model/record';
import { parseW3cdtf } from '../model/dates';
import { withAncestors } from '../model/header';
import { normalizeLanguageTag, primaryLanguage } from '../model/language';
import { COAR_RESOURCE_TYPE_PREFIX, COAR_TYPES, type AccessRight, type OpenAireResourceType } from '../model/vocabularies';
import { typeOfGeneral } from '../model/type-crosswalks';

/** A membership predicate over one record. */
export type SetRule =
  | { readonly kind: 'resourceType'; readonly values: readonly string[] }
  | { readonly kind: 'accessRights'; readonly values: readonly AccessRight[] }
  | { readonly kind: 'license'; readonly values: readonly string[] }
  | { readonly kind: 'hasDoi' | 'hasFile' | 'funded'; readonly value: boolean }
  | { readonly kind: 'language'; readonly values: readonly string[] }
  | { readonly kind: 'subject'; readonly scheme: string; readonly value?: string }
  | { readonly kind: 'issued'; readonly from?: string; readonly until?: string }
  | { readonly kind: 'inSet'; readonly spec: string }
  | { readonly kind: 'all' | 'any'; readonly rules: readonly SetRule[] }
  | { readonly kind: 'not'; readonly rule: SetRule };

/** One set declared in the configuration: static (no rule), by rule, or a family (one set per class found). */
export interface SetDefinition {
  readonly spec: string;
  readonly name: string;
  /** Absent for a static set: the records name it. */
  readonly rule?: SetRule;
  /** A family: the specs under `spec` a record belongs to (e.g. `ddc:004`), each declared as it is found. */
  readonly family?: (record: RecordFields) => readonly string[];
  /** The ready-made definition this came from, if any. */
  readonly preset?: string;
}

/** Every declared set, checked, with the rule sets in an order where each comes after the sets it refers to. */
export interface SetDefinitions {
  readonly all: readonly SetDefinition[];
  /** The sets with a rule or a family, dependencies first. */
  readonly computed: readonly SetDefinition[];
}

export type Path = readonly (string | number)[];

/** A declaration that cannot be used, with the path of the offending value (the configuration turns it into a line). */
export class SetRuleError extends Error {
  constructor(
    readonly path: Path,
    problem: string,
  ) {
    super(problem);
    this.name = 'SetRuleError';
  }
}

// ------------------------------------------------------------------ presets

export const OPENAIRE_TYPES: readonly OpenAireResourceType[] = ['literature', 'dataset', 'software', 'other research product'];

/** `dc:subject` values written `ddc:NNN` (DINI 2016, A.2.2): the three-digit class. */
const DDC_SUBJECT = /^ddc:\s*(\d{3})(?:[.\d]*)$/i;

/**
 * The ready-made definitions, each from the guideline section it cites.
 *
 * - `openaire`: OpenAIRE Guidelines for Literature Repository Managers 3.0,
 *   "Use of OAI-PMH", "OpenAIRE OAI Set" and "Set content": publications
 *   that are open access (full text with no access restrictions) or the
 *   outcome of a funded research project identified by a project identifier
 *   ("Project Identifier", `info:eu-repo/grantAgreement/…`), whatever their
 *   access. Publications: OpenAIRE type `literature`.
 * - `openaire_data`: OpenAIRE Guidelines for Data Archive Managers, "Use of
 *   OAI-PMH", "OpenAIRE OAI Set" and "Set content": the datasets (OpenAIRE
 *   harvests all of them and shows those funded or linked to a publication).
 * - `driver`: DRIVER Guidelines 2.0, "DRIVER Set naming" and "DRIVER Set
 *   Content definitions": open access full text of textual resources, not
 *   metadata-only, not embargoed ("Delayed Access resources or Embargoed
 *   resources must not be in this list"). Textual: a resource type whose
 *   MARC type of record is language material, or no type given.
 * - `open_access`: DINI-Zertifikat 2016 (DINI Schriften 3, version 5.0),
 *   Anhang A.2.1 "Set für Open-Access-Dokumente": every record of an open
 *   access document, setSpec `open_access`.
 * - `ddc`: DINI-Zertifikat 2016, Anhang A.2.2 "Sets für DDC-Gruppen": one set
 *   `ddc:NNN` per DDC class of the records' `dc:subject` values written
 *   `ddc:NNN`.
 */
export const PRESETS: Readonly<Record<string, { readonly name: string; readonly rule?: SetRule; readonly family?: (r: RecordFields) => readonly string[] }>> = {
  openaire: {
    name: 'OpenAIRE',
    rule: {
      kind: 'all',
      rules: [
        { kind: 'resourceType', values: ['literature'] },
        {
          kind: 'any',
          rules: [
            { kind: 'accessRights', values: ['open'] },
            { kind: 'funded', value: true },
          ],
        },
      ],
    },
  },
  openaire_data: { name: 'OpenAIRE', rule: { kind: 'resourceType', values: ['dataset'] } },
  driver: {
    name: 'Open Access DRIVERset',
    rule: {
      kind: 'all',
      rules: [
        { kind: 'accessRights', values: ['open'] },
        { kind: 'hasFile', value: true },
        { kind: 'resourceType', values: ['textual'] },
      ],
    },
  },
  open_access: { name: 'Open Access', rule: { kind: 'accessRights', values: ['open'] } },
  ddc: {
    name: 'Dewey Decimal Classification',
    family: (r) =>
      [
        ...new Set(
          (r.dc.subject ?? []).flatMap((s) => {
            const m = DDC_SUBJECT.exec(s.trim());
            return m ? [`ddc:${m[1] as string}`] : [];
          }),
        ),
      ].sort(),
  },
};

// ------------------------------------------------------------------ evaluation

/** The record's issued date as a calendar date: `dates.issued` (a timestamp's day), else the publication year (the field, or a `dc:date`). */
function issuedOf(r: RecordFields): string | undefined {
  const issued = r.dates?.issued;
  return issued !== undefined ? (parseW3cdtf(issued)?.date ?? issued) : publicationYear(r);
}

/** The first and last day a partial ISO date covers, as YYYY-MM-DD. */
export function dayRange(d: string): [string, string] {
  const [y, m, day] = d.split('-');
  if (day !== undefined) return [d, d];
  if (m !== undefined) return [`${y}-${m}-01`, `${y}-${m}-31`];
  return [`${y}-01-01`, `${y}-12-31`];
}

const matches = (pattern: string, value: string): boolean => (pattern.endsWith('*') ? value.startsWith(pattern.slice(0, -1)) : value === pattern);

function matchesType(r: RecordFields, value: string): boolean {
  if (value === 'textual') {
    // DRIVER 2.0: textual resources; a record that gives no type is taken as text, as Dublin Core records are.
    const t = r.resourceType;
    if (t === undefined) return true;
    const known = t.coar === undefined ? undefined : COAR_TYPES.get(t.coar);
    return (known ?? typeOfGeneral(t.general)).leader06 === 'a';
  }
  if (value.startsWith(COAR_RESOURCE_TYPE_PREFIX)) return r.resourceType?.coar === value;
  if ((OPENAIRE_TYPES as readonly string[]).includes(value)) return openAireType(r) === value;
  if (r.resourceType !== undefined) return r.resourceType.general === value;
  // A Dublin Core record: its dc:type words, compared without case.
  return (r.dc.type ?? []).some((t) => t.trim().toLowerCase() === value.toLowerCase());
}

/** The sets a record is in so far: the static ones it names (ancestors included) and the rule sets already decided. */
export type Membership = ReadonlySet<string>;

/**
 * Whether one record satisfies one rule, given the sets it is already in.
 *
 * @example evaluateRule({ kind: 'hasDoi', value: true }, { dc: { identifier: ['https://doi.org/10.5555/x'] } }, new Set()) // true
 */
export function evaluateRule(rule: SetRule, r: RecordFields, member: Membership): boolean {
  switch (rule.kind) {
    case 'resourceType':
      return rule.values.some((v) => matchesType(r, v));
    case 'accessRights': {
      const a = accessRightOf(r);
      return a !== undefined && rule.values.includes(a);
    }
    case 'license': {
      const licences = [...(r.license !== undefined ? [r.license] : []), ...(r.dc.rights ?? []).map((v) => v.trim()).filter((v) => /^https?:\/\//.test(v))];
      return licences.some((l) => rule.values.some((p) => matches(p, l)));
    }
    case 'hasDoi':
      return hasDoi(r) === rule.value;
    case 'hasFile':
      return (r.files ?? []).length > 0 === rule.value;
    case 'funded':
      return isFunded(r) === rule.value;
    case 'language': {
      // A rule names language codes; a BCP 47 tag (en-US, DSpace's en_US) is in the language of its primary subtag.
      const langs = r.language !== undefined ? [r.language] : (r.dc.language ?? []).map((l) => normalizeLanguageTag(l) ?? l.trim().toLowerCase());
      return langs.some((l) => rule.values.includes(l.toLowerCase()) || rule.values.includes(primaryLanguage(l)));
    }
    case 'subject': {
      const prefix = `${rule.scheme.toLowerCase()}:`;
      return (r.dc.subject ?? []).some((s) => {
        const v = s.trim();
        if (!v.toLowerCase().startsWith(prefix)) return false;
        return rule.value === undefined || matches(rule.value, v.slice(prefix.length).trim());
      });
    }
    case 'issued': {
      const d = issuedOf(r);
      if (d === undefined) return false;
      const [first] = dayRange(d);
      if (rule.from !== undefined && first < dayRange(rule.from)[0]) return false;
      if (rule.until !== undefined && first > dayRange(rule.until)[1]) return false;
      return true;
    }
    case 'inSet':
      return member.has(rule.spec);
    case 'all':
      return rule.rules.every((x) => evaluateRule(x, r, member));
    case 'any':
      return rule.rules.some((x) => evaluateRule(x, r, member));
    case 'not':
      return !evaluateRule(rule.rule, r, member);
  }
}

/**
 * The sets by rule (and family) a record belongs to, sorted: each rule set
 * is decided after the sets it refers to, seeing the record's static sets
 * (with their ancestors) and the rule sets already decided.
 *
 * @example computedSets(defs, { dc: { subject: ['ddc:004'] }, accessRights: 'open' }, []) // ['ddc:004', 'open_access']
 */
export function computedSets(defs: SetDefinitions, r: RecordFields, staticSets: readonly string[]): string[] {
  const member = new Set<string>();
  for (const s of staticSets) for (const a of withAncestors(s)) member.add(a);
  const out: string[] = [];
  for (const d of defs.computed) {
    const specs = d.family ? d.family(r) : d.rule && evaluateRule(d.rule, r, member) ? [d.spec] : [];
    for (const s of specs) {
      out.push(s);
      for (const a of withAncestors(s)) member.add(a);
    }
  }
  return [...new Set(out)].sort();
}

/**
 * The name of a set a family makes (`ddc:004` → "DDC 004").
 *
 * @example familySetName('ddc:004') // 'DDC 004'
 */
export function familySetName(spec: string): string {
  const [family, ...rest] = spec.split(':');
  return `${(family ?? '').toUpperCase()} ${rest.join(':')}`;
}

// ------------------------------------------------------------------ membership of an item

/**
 * Whether a set's membership belongs to the rules (a rule set, or a set of a
 * family such as `ddc:004`) rather than to the records.
 *
 * @example isRuleOwned(defs, 'ddc:004') // true when the ddc preset is declared
 */
export function isRuleOwned(defs: SetDefinitions, spec: string): boolean {
  return defs.computed.some((d) => (d.family ? spec.startsWith(`${d.spec}:`) : d.spec === spec));
}

/**
 * An item's direct sets once the rules have been applied: the sets the
 * record names itself (any rule-owned set among them is dropped, since the
 * rules decide those) and every rule set it satisfies, sorted. The loader
 * applies it to each record as it is read; `rebuild-sets` to each stored
 * item, so that an item leaving a rule set leaves it by the same write path
 * as an item a load takes out of a static set.
 *
 * @example setsWithRules(defs, { dc: {}, accessRights: 'open' }, ['physics']) // ['open_access', 'physics']
 */
export function setsWithRules(defs: SetDefinitions, r: RecordFields, sets: readonly string[]): string[] {
  if (defs.computed.length === 0) return [...sets];
  const own = sets.filter((s) => !isRuleOwned(defs, s));
  return [...new Set([...own, ...computedSets(defs, r, own)])].sort();
}

/** A set to declare: its spec and name (the store's `SetInput`). */
export interface SetDeclaration {
  readonly spec: string;
  readonly name: string;
}

/**
 * The sets to declare before items join them: every set the configuration
 * declares (a family by its parent, `ddc`), and each family member among
 * `found` (`ddc:530` → "DDC 530").
 *
 * @example setDeclarations(defs, ['ddc:530']) // [{ spec: 'ddc', name: 'Dewey Decimal Classification' }, { spec: 'ddc:530', name: 'DDC 530' }, …]
 */
export function setDeclarations(defs: SetDefinitions, found: readonly string[] = []): SetDeclaration[] {
  const out = new Map<string, string>(defs.all.map((d) => [d.spec, d.name]));
  for (const s of found) if (!out.has(s) && isRuleOwned(defs, s)) out.set(s, familySetName(s));
  return [...out].map(([spec, name]) => ({ spec, name }));
}
