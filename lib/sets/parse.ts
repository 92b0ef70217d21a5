/**
 * Parsing and checking the `sets:` declarations of the configuration file
 * (lib/sets/rules.ts has the rule language and its evaluation): every rule
 * key and value is checked, a rule may name only declared sets, and sets may
 * not refer to each other in a cycle. Each fault is a {@link SetRuleError}
 * carrying the path of the offending value, which server/config.ts turns
 * into the file's line.
 *
 * Pure: no I/O.
 */
import { SET_SPEC } from '../model/header';
import { ACCESS_RIGHTS, COAR_RESOURCE_TYPE_PREFIX, DATACITE_RESOURCE_TYPES, type AccessRight } from '../model/vocabularies';
import { dayRange, OPENAIRE_TYPES, PRESETS, SetRuleError, type Path, type SetDefinition, type SetDefinitions, type SetRule } from './rules';

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The keys a set rule may have, one per rule (docs/sets.md has a row for each). */
export const RULE_KEYS = [
  'resourceType',
  'accessRights',
  'license',
  'hasDoi',
  'hasFile',
  'funded',
  'language',
  'subject',
  'issued',
  'inSet',
  'all',
  'any',
  'not',
] as const;
const PARTIAL_DATE = /^\d{4}(-(0[1-9]|1[0-2])(-(0[1-9]|[12]\d|3[01]))?)?$/;

function stringList(v: unknown, path: Path, check: (s: string) => string | null): string[] {
  const list = typeof v === 'string' ? [v] : v;
  if (!Array.isArray(list) || list.length === 0 || list.some((x) => typeof x !== 'string'))
    throw new SetRuleError(path, 'must be a string or a non-empty list of strings');
  list.forEach((s: string, i) => {
    const problem = check(s);
    if (problem !== null) throw new SetRuleError(typeof v === 'string' ? path : [...path, i], `${JSON.stringify(s)} ${problem}`);
  });
  return list as string[];
}

function flag(v: unknown, path: Path): boolean {
  if (typeof v !== 'boolean') throw new SetRuleError(path, 'must be true or false');
  return v;
}

function checkType(s: string): string | null {
  if (s === 'textual' || (OPENAIRE_TYPES as readonly string[]).includes(s) || (DATACITE_RESOURCE_TYPES as readonly string[]).includes(s)) return null;
  if (s.startsWith(COAR_RESOURCE_TYPE_PREFIX) && /^c_[0-9a-z]+$/.test(s.slice(COAR_RESOURCE_TYPE_PREFIX.length))) return null;
  return `is not a COAR resource type URI, a DataCite resourceTypeGeneral or an OpenAIRE type (${OPENAIRE_TYPES.join(', ')})`;
}

/**
 * Reads one rule from its configuration value (a mapping with one key), or
 * throws a {@link SetRuleError} with the path of the value at fault.
 *
 * @example parseRule({ all: [{ accessRights: open }, { hasFile: true }] }) // { kind: 'all', rules: [ … ] }
 */
export function parseRule(v: unknown, path: Path = []): SetRule {
  if (!isRecord(v)) throw new SetRuleError(path, `must be a mapping with one of ${RULE_KEYS.join(', ')}`);
  const keys = Object.keys(v);
  if (keys.length !== 1) throw new SetRuleError(path, `must have exactly one key (one of ${RULE_KEYS.join(', ')}); combine rules with all, any or not`);
  const key = keys[0] as string;
  const value = v[key];
  const at: Path = [...path, key];
  switch (key) {
    case 'resourceType':
      return { kind: 'resourceType', values: stringList(value, at, checkType) };
    case 'accessRights':
      return {
        kind: 'accessRights',
        values: stringList(value, at, (s) =>
          Object.hasOwn(ACCESS_RIGHTS, s) ? null : `is not one of ${Object.keys(ACCESS_RIGHTS).join(', ')}`,
        ) as AccessRight[],
      };
    case 'license':
      return {
        kind: 'license',
        values: stringList(value, at, (s) => (/^[A-Za-z][A-Za-z0-9+.-]*:\S+$/.test(s) ? null : 'is not an absolute URI (or a prefix of one ending in *)')),
      };
    case 'hasDoi':
    case 'hasFile':
    case 'funded':
      return { kind: key, value: flag(value, at) };
    case 'language':
      return { kind: 'language', values: stringList(value, at, (s) => (/^[a-z]{2,3}$/.test(s) ? null : 'is not an ISO 639-1 or 639-3 code in lower case')) };
    case 'subject': {
      if (!isRecord(value)) throw new SetRuleError(at, 'must be a mapping with scheme (and optionally value)');
      for (const k of Object.keys(value)) if (k !== 'scheme' && k !== 'value') throw new SetRuleError([...at, k], 'unknown key (known: scheme, value)');
      if (typeof value.scheme !== 'string' || !/^[A-Za-z][A-Za-z0-9._-]*$/.test(value.scheme))
        throw new SetRuleError([...at, 'scheme'], 'must be a scheme name such as ddc');
      if (value.value !== undefined && (typeof value.value !== 'string' || value.value.trim() === ''))
        throw new SetRuleError([...at, 'value'], 'must be a non-empty string');
      return { kind: 'subject', scheme: value.scheme, ...(typeof value.value === 'string' && { value: value.value }) };
    }
    case 'issued': {
      if (!isRecord(value)) throw new SetRuleError(at, 'must be a mapping with from and/or until');
      const out: { from?: string; until?: string } = {};
      for (const [k, d] of Object.entries(value)) {
        if (k !== 'from' && k !== 'until') throw new SetRuleError([...at, k], 'unknown key (known: from, until)');
        const s = typeof d === 'number' ? String(d) : d;
        if (typeof s !== 'string' || !PARTIAL_DATE.test(s)) throw new SetRuleError([...at, k], 'must be a date YYYY, YYYY-MM or YYYY-MM-DD');
        out[k] = s;
      }
      if (out.from === undefined && out.until === undefined) throw new SetRuleError(at, 'needs from, until or both');
      if (out.from !== undefined && out.until !== undefined && dayRange(out.from)[0] > dayRange(out.until)[1])
        throw new SetRuleError(at, `is empty: ${out.from} is after ${out.until}`);
      return { kind: 'issued', ...out };
    }
    case 'inSet':
      if (typeof value !== 'string' || !SET_SPEC.test(value)) throw new SetRuleError(at, 'must be a setSpec');
      return { kind: 'inSet', spec: value };
    case 'all':
    case 'any': {
      if (!Array.isArray(value) || value.length === 0) throw new SetRuleError(at, 'must be a non-empty list of rules');
      return { kind: key, rules: value.map((x, i) => parseRule(x, [...at, i])) };
    }
    case 'not':
      return { kind: 'not', rule: parseRule(value, at) };
    default:
      throw new SetRuleError([...path, key], `unknown field ${JSON.stringify(key)} (known: ${RULE_KEYS.join(', ')})`);
  }
}

/** The sets a rule refers to, with the path of each reference. */
function references(rule: SetRule, path: Path): { spec: string; path: Path }[] {
  switch (rule.kind) {
    case 'inSet':
      return [{ spec: rule.spec, path: [...path, 'inSet'] }];
    case 'all':
    case 'any':
      return rule.rules.flatMap((r, i) => references(r, [...path, rule.kind, i]));
    case 'not':
      return references(rule.rule, [...path, 'not']);
    default:
      return [];
  }
}

/** The keys of one entry of the configuration's `sets` list (docs/sets.md has a row for each). */
export const ENTRY_KEYS: readonly string[] = ['spec', 'name', 'rule', 'preset'];

/**
 * Reads the `sets` list of the configuration: static sets (`spec`, `name`),
 * sets by rule (`spec`, `name`, `rule`) and ready-made ones (`preset`, with
 * an optional `name`). Checks every rule, that every `inSet` names a
 * declared set, that no set is declared twice, and that no sets refer to
 * each other in a cycle; returns the rule sets in dependency order.
 *
 * @example parseSetDefinitions([{ preset: 'open_access' }, { spec: 'theses', name: 'Theses', rule: { resourceType: 'Dissertation' } }])
 */
export function parseSetDefinitions(raw: unknown): SetDefinitions {
  if (!Array.isArray(raw)) throw new SetRuleError([], 'must be a list of sets (each "- spec: …" or "- preset: …")');
  const all: SetDefinition[] = [];
  const where = new Map<string, number>();
  raw.forEach((entry, i) => {
    if (!isRecord(entry)) throw new SetRuleError([i], 'must be a mapping with spec and name, or preset');
    for (const k of Object.keys(entry)) if (!ENTRY_KEYS.includes(k)) throw new SetRuleError([i, k], `unknown key (known: ${ENTRY_KEYS.join(', ')})`);
    let def: SetDefinition;
    if (entry.preset !== undefined) {
      const p = typeof entry.preset === 'string' && Object.hasOwn(PRESETS, entry.preset) ? PRESETS[entry.preset] : undefined;
      if (!p) throw new SetRuleError([i, 'preset'], `${JSON.stringify(entry.preset)} is not a ready-made set (known: ${Object.keys(PRESETS).join(', ')})`);
      if (entry.spec !== undefined || entry.rule !== undefined)
        throw new SetRuleError([i, entry.spec !== undefined ? 'spec' : 'rule'], 'a preset has its own spec and rule');
      if (entry.name !== undefined && (typeof entry.name !== 'string' || entry.name.trim() === ''))
        throw new SetRuleError([i, 'name'], 'must be a non-empty string');
      const name = typeof entry.name === 'string' ? entry.name : p.name;
      def = { spec: entry.preset as string, name, preset: entry.preset as string, ...(p.rule && { rule: p.rule }), ...(p.family && { family: p.family }) };
    } else {
      if (typeof entry.spec !== 'string' || !SET_SPEC.test(entry.spec))
        throw new SetRuleError([i, 'spec'], "must be a setSpec (letters, digits, -_.!~*'() and : between levels)");
      if (typeof entry.name !== 'string' || entry.name.trim() === '') throw new SetRuleError([i, 'name'], 'must be a non-empty string');
      def = { spec: entry.spec, name: entry.name, ...(entry.rule !== undefined && { rule: parseRule(entry.rule, [i, 'rule']) }) };
    }
    if (where.has(def.spec)) throw new SetRuleError([i], `set ${JSON.stringify(def.spec)} is declared twice`);
    where.set(def.spec, i);
    all.push(def);
  });

  // Every reference names a declared set; a family's sets are named by the family (inSet: ddc) or one class (inSet: ddc:004).
  const families = all.filter((d) => d.family).map((d) => d.spec);
  const declared = (spec: string): string | undefined => (where.has(spec) ? spec : families.find((f) => spec.startsWith(`${f}:`)));
  const deps = new Map<string, string[]>();
  all.forEach((d, i) => {
    const refs = d.rule ? references(d.rule, [i, 'rule']) : [];
    deps.set(
      d.spec,
      refs.map((ref) => {
        const target = declared(ref.spec);
        if (target === undefined) throw new SetRuleError(ref.path, `names set ${JSON.stringify(ref.spec)}, which is not declared in sets`);
        return target;
      }),
    );
  });

  // Dependency order, refusing a cycle (depth-first, naming the loop).
  const computed: SetDefinition[] = [];
  const state = new Map<string, 'visiting' | 'done'>();
  const visit = (spec: string, trail: string[]): void => {
    if (state.get(spec) === 'done') return;
    if (state.get(spec) === 'visiting') {
      const loop = [...trail.slice(trail.indexOf(spec)), spec];
      throw new SetRuleError([where.get(spec) as number, 'rule'], `sets refer to each other in a cycle: ${loop.join(' → ')}`);
    }
    state.set(spec, 'visiting');
    for (const dep of deps.get(spec) ?? []) visit(dep, [...trail, spec]);
    state.set(spec, 'done');
    const d = all[where.get(spec) as number] as SetDefinition;
    if (d.rule || d.family) computed.push(d);
  };
  for (const d of all) visit(d.spec, []);
  return { all, computed };
}
