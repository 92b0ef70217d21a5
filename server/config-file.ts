/**
 * The repository configuration file (YAML): its syntax, its keys, and the
 * sections that are more than a value (`formats`, `identify`, `sets`), each
 * refusal naming the file, the line and the key. server/config.ts merges
 * what this reads with the environment.
 */
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { isMap, isScalar, isSeq, LineCounter, parseDocument, visit, type Document as YamlDocument, type Node as YamlNode, type Pair, type YAMLMap } from 'yaml';
import { BUILT_IN_FORMATS, type FormatDeclaration } from '../lib/formats/registry';
import { DESCRIPTION_SCHEMAS, describeRepository, type IdentifyDescriptions } from '../lib/oai/descriptions';
import { SetRuleError, type SetDefinitions } from '../lib/sets/rules';
import { parseSetDefinitions } from '../lib/sets/parse';
import { parseSources, type SourceConfig } from '../lib/harvest/sources';
import { readIdentify, ShapeError } from './config-identify';
import { elementErrors, schemaFor } from './xsd/schemas';
import { addCatalogs } from './xsd/libxml';
import { own } from '../lib/model/own';

type FormatConfig = FormatDeclaration;

/** Thrown for a configuration value that cannot be used; the message names the variable, or the file, line and key. */
export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigError';
  }
}

/**
 * The formats that ship with a crosswalk from the record fields, with the
 * options each takes (and their defaults): derived from lib/formats'
 * `BUILT_IN_FORMATS`, the one list.
 */
export const BUILTIN_FORMATS: Readonly<Record<string, Readonly<Record<string, string>>>> = Object.freeze(
  Object.fromEntries(BUILT_IN_FORMATS.map((f) => [f.prefix, f.defaultOptions ?? {}])),
);

/** A value as found: a string from the environment, or a YAML value from the file; `label` names where, for messages. */
export interface Raw {
  readonly value: unknown;
  readonly label: string;
  /** The folder relative paths in this value are relative to. */
  readonly base: string;
}

/** What the file says: its plain settings and its sections, each already checked. */
export interface ConfigFile {
  readonly path: string;
  /** The plain settings by key (everything but the sections read here). */
  readonly values: ReadonlyMap<string, Raw>;
  readonly formats: FormatConfig[] | undefined;
  readonly identify: IdentifyDescriptions | undefined;
  readonly sets: SetDefinitions | undefined;
  readonly sources: SourceConfig[] | undefined;
}

/**
 * Reads and checks the YAML file: its syntax, that its top level is a
 * mapping, that every key is known (a misspelt key is an error, not a
 * silently ignored setting) and given once, and the `formats` list.
 */
export function readConfigFile(file: string, knownKeys: readonly string[]): ConfigFile {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (err) {
    throw new ConfigError(`${file}: cannot be read: ${(err as Error).message}`);
  }
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines, uniqueKeys: false, prettyErrors: false });
  const at = (node: { range?: [number, number, number] | null } | null | undefined): string => {
    const offset = node?.range?.[0];
    return `${file}:${offset === undefined ? 1 : lines.linePos(offset).line}`;
  };
  const first = doc.errors[0];
  if (first) throw new ConfigError(`${file}:${first.linePos?.[0]?.line ?? 1}: not valid YAML: ${first.message.split('\n')[0]}`);
  resolveAliases(doc, at);
  const base = path.dirname(file);
  const values = new Map<string, Raw>();
  let formats: FormatConfig[] | undefined;
  let identify: IdentifyDescriptions | undefined;
  let sets: SetDefinitions | undefined;
  let sources: SourceConfig[] | undefined;
  if (doc.contents === null) return { path: file, values, formats, identify, sets, sources };
  if (!isMap(doc.contents)) throw new ConfigError(`${at(doc.contents)}: the file must be a mapping of keys (e.g. "namespace: example.org")`);
  for (const pair of (doc.contents as YAMLMap).items) {
    const key = pairKey(pair);
    const where = at(pair.key as YamlNode);
    if (key === null) throw new ConfigError(`${where}: a key must be a plain string`);
    if (!knownKeys.includes(key)) throw new ConfigError(`${where}: unknown key ${JSON.stringify(key)} (known: ${knownKeys.join(', ')})`);
    if (
      values.has(key) ||
      (key === 'formats' && formats !== undefined) ||
      (key === 'identify' && identify !== undefined) ||
      (key === 'sets' && sets !== undefined) ||
      (key === 'sources' && sources !== undefined)
    )
      throw new ConfigError(`${where}: key ${JSON.stringify(key)} is given twice`);
    const label = `${where}: ${key}`;
    if (key === 'formats') formats = readFormats(pair.value as YamlNode | null, label, base, at);
    else if (key === 'identify') identify = readIdentifySection(doc, pair, at);
    else if (key === 'sets') sets = readSetsSection(doc, pair, at);
    else if (key === 'sources') sources = readSourcesSection(pair.value as YamlNode | null, where, at);
    else values.set(key, { value: plain(pair.value as YamlNode | null, label), label, base });
  }
  // libxml2 reads its catalogs once, when first used: the formats' catalogs go in before any schema is compiled.
  if (formats) compileDeclaredSchemas(formats, doc, at);
  if (identify) checkIdentify(identify, doc, at);
  return { path: file, values, formats, identify, sets, sources };
}

/** The `sources` section (lib/harvest/sources.ts), with the line of the source at fault. */
function readSourcesSection(node: YamlNode | null, where: string, at: (n: YamlNode | null | undefined) => string): SourceConfig[] {
  const parsed = parseSources(node === null ? null : (node as { toJSON(): unknown }).toJSON());
  if ('sources' in parsed) return parsed.sources;
  const item = parsed.index !== undefined && isSeq(node) ? (node.items[parsed.index] as YamlNode | undefined) : undefined;
  throw new ConfigError(`${item ? at(item) : where}: ${parsed.error}`);
}

/** Nodes alias expansion may add to a document, at most (a bound on "billion laughs" expansion). */
export const MAX_YAML_EXPANSION = 10_000;

/**
 * Replaces every alias (`*name`) by a copy of the node its anchor names
 * (YAML 1.2 3.2.2.2), so every section reads plain values; when the copies
 * would add more than {@link MAX_YAML_EXPANSION} nodes the file is refused.
 */
function resolveAliases(doc: YamlDocument, at: (n: YamlNode | null | undefined) => string): void {
  let added = 0;
  visit(doc, {
    Alias(_key, alias) {
      const target = alias.resolve(doc);
      const where = at(alias as unknown as YamlNode);
      if (target === undefined) throw new ConfigError(`${where}: alias *${alias.source} names no anchor before it`);
      let size = 0;
      visit(target, () => {
        if (++size + added > MAX_YAML_EXPANSION) throw new ConfigError(`${where}: aliases would expand the file by more than ${MAX_YAML_EXPANSION} values`);
      });
      added += size;
      return target.clone() as YamlNode;
    },
  });
}

/**
 * Compiles the local XSD of every declared format now, so a file that is not
 * a schema (or imports one that cannot be found offline) stops start-up
 * naming the key, rather than refusing every record later.
 */
function compileDeclaredSchemas(formats: readonly FormatConfig[], doc: YamlDocument, at: (n: YamlNode | null | undefined) => string): void {
  const declared = formats.flatMap((f) => (f.kind === 'declared' ? [{ f }] : []));
  try {
    addCatalogs(declared.flatMap(({ f }) => (f.catalog !== undefined ? [f.catalog] : [])));
  } catch (err) {
    throw new ConfigError(`formats: ${(err as Error).message}`);
  }
  for (const { f } of declared) {
    if (f.namespace === undefined || f.xsd === undefined) continue;
    const compiled = schemaFor(f.namespace, pathToFileURL(f.xsd).href);
    if (!(compiled instanceof Error)) continue;
    const index = (doc.get('formats') as { items: YamlNode[] } | undefined)?.items.findIndex((n) => isMap(n) && n.get('prefix') === f.prefix) ?? -1;
    const node = index < 0 ? undefined : (doc.getIn(['formats', index, 'xsd'], true) as YamlNode | undefined);
    throw new ConfigError(`${at(node)}: formats[${index}].xsd: ${f.xsd} cannot be compiled as the schema of ${f.namespace}: ${compiled.message.slice(0, 300)}`);
  }
}

/**
 * The `sets` section: static sets, sets by rule and ready-made ones
 * (lib/sets/rules.ts), with a refusal naming the line and the key of the
 * value at fault: an unknown field or set, a cycle of sets.
 */
function readSetsSection(doc: YamlDocument, pair: Pair, at: (n: YamlNode | null | undefined) => string): SetDefinitions {
  const node = pair.value as YamlNode | null;
  try {
    return parseSetDefinitions(node === null ? null : node.toJSON());
  } catch (err) {
    if (!(err instanceof SetRuleError)) throw err;
    // The deepest node of the path the document has (an unknown key is a key, found through its mapping).
    let where: YamlNode | null = node;
    for (let n = err.path.length; n >= 0; n--) {
      const found = doc.getIn(['sets', ...err.path.slice(0, n)], true) as YamlNode | undefined;
      if (found !== undefined) {
        where = found;
        break;
      }
    }
    const key = err.path.reduce<string>((acc, p) => (typeof p === 'number' ? `${acc}[${p}]` : `${acc}.${p}`), 'sets');
    throw new ConfigError(`${at(where)}: ${key}: ${err.message}`);
  }
}

/**
 * The `identify` section: its shape (lines and keys named), then each
 * description built and checked against its published XSD, so a value the
 * schema refuses stops start-up rather than reaching harvesters.
 */
function readIdentifySection(doc: YamlDocument, pair: Pair, at: (n: YamlNode | null | undefined) => string): IdentifyDescriptions {
  const node = pair.value as YamlNode | null;
  try {
    return readIdentify(node === null ? null : node.toJSON());
  } catch (err) {
    if (!(err instanceof ShapeError)) throw err;
    const where = (doc.getIn(['identify', ...err.path], true) as YamlNode | undefined) ?? node;
    throw new ConfigError(`${at(where)}: ${['identify', ...err.path].join('.')} ${err.message}`);
  }
}

/** Each description built and checked against its published XSD. */
function checkIdentify(descriptions: IdentifyDescriptions, doc: YamlDocument, at: (n: YamlNode | null | undefined) => string): void {
  for (const [key, xml] of describeRepository(descriptions)) {
    const s = DESCRIPTION_SCHEMAS[key];
    const errors = elementErrors(xml, s.namespace, s.schema);
    if (errors.length > 0) {
      const where = doc.getIn(['identify', key], true) as YamlNode | undefined;
      throw new ConfigError(`${at(where)}: identify.${key} is not valid against ${s.schema}: ${errors.slice(0, 3).join('; ')}`);
    }
  }
}

function pairKey(pair: Pair): string | null {
  return isScalar(pair.key) && typeof pair.key.value === 'string' ? pair.key.value : null;
}

/** A scalar, or a sequence of scalars, as a JavaScript value; anything deeper is an error. */
function plain(node: YamlNode | null, label: string): unknown {
  if (node === null || (isScalar(node) && node.value === null)) throw new ConfigError(`${label} has no value`);
  if (isScalar(node)) return node.value;
  if (isSeq(node)) {
    return node.items.map((item) => {
      if (!isScalar(item)) throw new ConfigError(`${label}: list items must be plain values`);
      return item.value;
    });
  }
  throw new ConfigError(`${label} must be a plain value or a list`);
}

const PREFIX = /^[A-Za-z0-9\-_.!~*'()]+$/;
/** The keys of one entry of the `formats` list (docs/configuration.md has a row for each). */
export const FORMAT_KEYS: ReadonlySet<string> = new Set(['prefix', 'namespace', 'schema', 'xsd', 'catalog', 'options']);

/** The `formats` list: built-in formats by prefix (with options), declared formats with namespace, schema URL and a local XSD. */
function readFormats(node: YamlNode | null, label: string, base: string, at: (n: YamlNode | null | undefined) => string): FormatConfig[] {
  if (!isSeq(node)) throw new ConfigError(`${label} must be a list of formats (each "- prefix: …")`);
  const out: FormatConfig[] = [];
  const seen = new Set<string>();
  node.items.forEach((item, index) => {
    const here = `${at(item as YamlNode)}: formats[${index}]`;
    if (!isMap(item)) throw new ConfigError(`${here} must be a mapping with at least "prefix"`);
    const fields = new Map<string, { node: YamlNode | null; where: string }>();
    for (const pair of item.items) {
      const key = pairKey(pair);
      const where = `${at(pair.key as YamlNode)}: formats[${index}].${key ?? '?'}`;
      if (key === null || !FORMAT_KEYS.has(key)) throw new ConfigError(`${where}: unknown key (known: ${[...FORMAT_KEYS].join(', ')})`);
      fields.set(key, { node: pair.value as YamlNode | null, where });
    }
    const text = (key: string): string | undefined => {
      const f = fields.get(key);
      if (f === undefined) return undefined;
      const v = plain(f.node, f.where);
      if (typeof v !== 'string' || v.trim() === '') throw new ConfigError(`${f.where} must be a non-empty string`);
      return v;
    };
    const prefix = text('prefix');
    if (prefix === undefined) throw new ConfigError(`${here} has no "prefix"`);
    const prefixAt = fields.get('prefix')?.where ?? here;
    if (!PREFIX.test(prefix)) throw new ConfigError(`${prefixAt}: ${JSON.stringify(prefix)} is not a valid metadataPrefix`);
    if (seen.has(prefix)) throw new ConfigError(`${prefixAt}: format ${JSON.stringify(prefix)} is listed twice`);
    seen.add(prefix);
    const options = readOptions(fields.get('options'), index, at);
    // An own property only: a prefix like "constructor" names no built-in format.
    const builtin = own(BUILTIN_FORMATS, prefix);
    if (builtin !== undefined) {
      for (const key of ['namespace', 'schema', 'xsd', 'catalog']) {
        const f = fields.get(key);
        if (f) throw new ConfigError(`${f.where}: ${prefix} is a built-in format; its ${key} cannot be changed (declare your own format under another prefix)`);
      }
      for (const key of Object.keys(options.values)) {
        if (!Object.hasOwn(builtin, key)) {
          const takes = Object.keys(builtin);
          throw new ConfigError(
            `${options.where[key] ?? here}: ${prefix} takes no option ${JSON.stringify(key)}${takes.length > 0 ? ` (it takes ${takes.join(', ')})` : ''}`,
          );
        }
      }
      out.push({ prefix, kind: 'builtin', options: { ...builtin, ...options.values } });
      return;
    }
    const namespace = text('namespace');
    const schema = text('schema');
    const xsd = text('xsd');
    for (const [key, v] of [
      ['namespace', namespace],
      ['schema', schema],
      ['xsd', xsd],
    ] as const) {
      if (v === undefined)
        throw new ConfigError(`${here} (${prefix}) is not a built-in format (${Object.keys(BUILTIN_FORMATS).join(', ')}), so it needs "${key}"`);
    }
    for (const [key, v] of [
      ['namespace', namespace],
      ['schema', schema],
    ] as const) {
      // OAI-PMH.xsd types metadataNamespace and schema as anyURI: an absolute URI.
      if (v !== undefined && !/^[A-Za-z][A-Za-z0-9+.-]*:\S+$/.test(v))
        throw new ConfigError(`${fields.get(key)?.where ?? here}: ${JSON.stringify(v)} is not an absolute URI`);
    }
    const files: Record<string, string> = {};
    for (const key of ['xsd', 'catalog']) {
      const v = key === 'xsd' ? xsd : text(key);
      if (v === undefined) continue;
      const resolved = path.resolve(base, v);
      if (!fs.existsSync(resolved)) throw new ConfigError(`${fields.get(key)?.where ?? here}: file ${resolved} does not exist`);
      files[key] = resolved;
    }
    out.push({
      prefix,
      kind: 'declared',
      namespace: namespace as string,
      schema: schema as string,
      xsd: files.xsd as string,
      ...(files.catalog !== undefined && { catalog: files.catalog }),
      options: options.values,
    });
  });
  if (!seen.has('oai_dc')) out.unshift({ prefix: 'oai_dc', kind: 'builtin', options: {} });
  return out;
}

function readOptions(
  f: { node: YamlNode | null; where: string } | undefined,
  index: number,
  at: (n: YamlNode | null | undefined) => string,
): { values: Record<string, string>; where: Record<string, string> } {
  // Without a prototype: an option named "__proto__" is an option like any other (and refused when unknown).
  const values = Object.create(null) as Record<string, string>;
  const where = Object.create(null) as Record<string, string>;
  if (f === undefined) return { values, where };
  if (!isMap(f.node)) throw new ConfigError(`${f.where} must be a mapping of option names to values`);
  for (const pair of f.node.items) {
    const key = pairKey(pair);
    const label = `${at(pair.key as YamlNode)}: formats[${index}].options.${key ?? '?'}`;
    if (key === null) throw new ConfigError(`${f.where}: option names must be plain strings`);
    const v = plain(pair.value as YamlNode | null, label);
    if (typeof v !== 'string' && typeof v !== 'number') throw new ConfigError(`${label} must be a string`);
    values[key] = String(v);
    where[key] = label;
  }
  return { values, where };
}
