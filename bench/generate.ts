/**
 * Synthetic but realistic records for the benchmark: Dublin Core of
 * about 1 KB and the structured record fields every built-in format is
 * crosswalked from, sets from a small hierarchy, datestamps spread over
 * ten years with ties, and a few tombstones. Deterministic (a seeded PRNG, no
 * clock), so two runs of one size load the same repository.
 *
 * Records go into the store exactly as the loader would put them there: the
 * project's record format, through `jsonToItem` (which runs every configured
 * format's crosswalk and adds each record's POI) and the store's `writeItems`,
 * the one write gate (record rules, the check of each format, identifier
 * governance).
 */
import { jsonToItem } from '../lib/pipeline/json-record';
import type { FormatRegistry } from '../lib/formats/registry';
import { dublinCoreToOaiDc } from '../lib/formats/oai-dc';
import type { ItemInput, SetInput, TransactionalStore } from '../lib/store';

/** mulberry32: tiny, seedable, good enough for test data. */
function prng(seed: number): () => number {
  let s = seed | 0;
  return () => {
    s = (s + 0x6d2b79f5) | 0;
    let t = Math.imul(s ^ (s >>> 15), 1 | s);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The set hierarchy every generated record is put in (setSpec levels joined by ':', OAI-PMH 4.6). */
export const BENCH_SETS: readonly SetInput[] = [
  { spec: 'physics', name: 'Physics' },
  { spec: 'physics:hep', name: 'High-energy physics' },
  { spec: 'physics:cond-mat', name: 'Condensed matter' },
  { spec: 'math', name: 'Mathematics' },
  { spec: 'math:logic', name: 'Logic and foundations' },
  { spec: 'history', name: 'History' },
  { spec: 'history:medieval', name: 'Medieval manuscripts' },
  { spec: 'theses', name: 'Theses' },
  { spec: 'datasets', name: 'Research data' },
  { spec: 'collections', name: 'Special collections' },
];

const LEAF_SETS = ['physics:hep', 'physics:cond-mat', 'math', 'math:logic', 'history', 'history:medieval', 'collections'];
const GIVEN = [
  'Jane',
  'Lucía',
  'Jürgen',
  'Hélène',
  'Zofia',
  'Paweł',
  'Γιώργος',
  'Ελένη',
  '太郎',
  'Siobhán',
  'Thị Minh',
  'Björn',
  'Chinedu',
  'Wei',
  'Darya',
  'Michael',
];
const FAMILY = [
  'Smith',
  'García Márquez',
  'Müller',
  'Dupré',
  'Łukasiewicz',
  'Wójcik',
  'Παπαδόπουλος',
  'Οικονόμου',
  '山田',
  "O'Brien",
  'Nguyễn',
  'Andersson',
  'Okafor',
  'Chen',
  'Ivanova',
  'Brown',
];
const WORDS = [
  'lattice',
  'form factor',
  'calorimeter',
  'superconductivity',
  'thin films',
  'proof theory',
  'modal logic',
  'partitions',
  'primes',
  'manuscript',
  'palaeography',
  'urban history',
  'oral history',
  'transport',
  'graphene',
  'decidability',
  'detector',
  'calibration',
  'spectroscopy',
  'archive',
  'codex',
  'marginalia',
  'migration',
  'climate',
  'networks',
];
const SUBJECTS = [
  'Lattice QCD',
  'Particle detectors',
  'Superconductivity',
  'Proof theory',
  'Number theory',
  'Manuscripts',
  'Urban history',
  'Combinatorics',
  'Thin films',
  'Oral history',
];
const PUBLISHERS = ['Example University Press', 'Universität Beispielstadt', 'Éditions de l’Exemple', 'Demo Research Institute'];
const RIGHTS = ['https://creativecommons.org/licenses/by/4.0/', 'https://creativecommons.org/publicdomain/zero/1.0/', 'All rights reserved'];
const KINDS: readonly (readonly [string, string, string])[] = [
  ['rep', 'Text', 'application/pdf'],
  ['rep', 'Text', 'application/pdf'],
  ['rep', 'Text', 'application/pdf'],
  ['thesis', 'Text', 'application/pdf'],
  ['data', 'Dataset', 'text/csv'],
  ['img', 'StillImage', 'image/tiff'],
];
const LANGS = ['en', 'en', 'en', 'de', 'fr', 'pl', 'el'];

/** 2015-01-01T00:00:00Z: the earliest datestamp of a generated repository. */
const T0 = Date.UTC(2015, 0, 1) / 1000;
/** Ten years of datestamps, so `from`/`until` harvests have something to select. */
const SPAN = 10 * 365 * 86400;

/** One generated record in the project's record format (lib/pipeline/json-record.ts). */
export interface GeneratedRecord {
  id: string;
  datestamp: string;
  sets: string[];
  deleted: boolean;
  dc: Record<string, string[]>;
  /** The structured record fields (README "Record fields") the richer formats are crosswalked from; absent on a tombstone. */
  identifiers?: { type: string; value: string }[];
  creators?: { name: string; givenName: string; familyName: string; nameType: 'person' }[];
  resourceType?: { coar: string };
  accessRights?: string;
  license?: string;
  publisher?: string;
  publicationYear?: string;
  dates?: { issued: string };
  language?: string;
  files?: { url: string; mediaType: string; size: number; access: string }[];
}

/** COAR resource types of the generated kinds (OpenAIRE v4 list). */
const COAR: Readonly<Record<string, string>> = { rep: 'c_6501', thesis: 'c_db06', data: 'c_ddb1', img: 'c_ecc8' };

/**
 * Makes record number `i` of a repository of `total` records. Datestamps grow
 * with `i` but jitter by up to a minute, so insertion order (pk) and datestamp
 * order differ a little, as in a real repository; about one record in 64
 * shares its second with its neighbour and one in 100 is a tombstone.
 * Example: `generateRecord(0, 1000).id` is `rep-2015-0000000`.
 */
export function generateRecord(i: number, total: number): GeneratedRecord {
  const rand = prng(0x5eed ^ Math.imul(i + 1, 2654435761));
  const int = (n: number): number => Math.floor(rand() * n);
  const pick = <T>(a: readonly T[]): T => a[int(a.length)] as T;
  const base = T0 + Math.floor((i * SPAN) / Math.max(1, total));
  const ds = i % 64 === 63 ? T0 + Math.floor(((i - 1) * SPAN) / Math.max(1, total)) : base + int(60);
  const iso = new Date(ds * 1000).toISOString().replace('.000Z', 'Z');
  const year = iso.slice(0, 4);
  const [prefix, type, format] = pick(KINDS);
  const id = `${prefix}-${year}-${String(i).padStart(7, '0')}`;
  const sets = [pick(LEAF_SETS)];
  if (prefix === 'thesis') sets.push('theses');
  if (prefix === 'data') sets.push('datasets');
  const deleted = i % 100 === 57;
  const w1 = pick(WORDS);
  const w2 = pick(WORDS);
  const title = `${w1[0]?.toUpperCase()}${w1.slice(1)} and ${w2} in a ${pick(WORDS)} perspective: a study of ${pick(WORDS)} (${i})`;
  const creators = Array.from({ length: 1 + int(4) }, () => `${pick(FAMILY)}, ${pick(GIVEN)}`);
  const description =
    `This work on ${w1} and ${w2} presents new results on ${pick(WORDS)} and compares them with earlier studies ` +
    `of ${pick(WORDS)}; the methods section describes the ${pick(WORDS)} used and its limits.`;
  const issued = `${2005 + int(20)}-${String(1 + int(12)).padStart(2, '0')}-${String(1 + int(28)).padStart(2, '0')}`;
  const doi = `10.5555/bench.${year}.${i}`;
  const dc: Record<string, string[]> = {
    title: [title],
    creator: creators,
    subject: [pick(SUBJECTS), pick(SUBJECTS), w1],
    description: [description],
    publisher: [pick(PUBLISHERS)],
    date: [issued],
    type: [type],
    format: [format],
    identifier: [`https://doi.org/${doi}`, `https://repo.example.org/items/${id}`],
    language: [pick(LANGS)],
    rights: [pick(RIGHTS)],
  };
  if (rand() < 0.3) dc.contributor = [`${pick(FAMILY)}, ${pick(GIVEN)}`];
  if (prefix === 'data') dc.relation = [`https://doi.org/10.5555/bench.${year}.${Math.max(0, i - 1 - int(100))}`];
  if (deleted) return { id, datestamp: iso, sets, deleted, dc };
  // Drawn after the Dublin Core, so adding them left every earlier value as it was. One record in
  // five has no DOI (no datacite or oai_datacite), as in a real repository.
  const rights = dc.rights?.[0] ?? '';
  return {
    id,
    datestamp: iso,
    sets,
    deleted,
    dc,
    identifiers: [...(i % 5 === 4 ? [] : [{ type: 'DOI', value: doi }]), { type: 'URL', value: `https://repo.example.org/items/${id}` }],
    creators: creators.map((name) => {
      const [familyName = name, givenName = name] = name.split(', ');
      return { name, givenName, familyName, nameType: 'person' as const };
    }),
    resourceType: { coar: `http://purl.org/coar/resource_type/${COAR[prefix] ?? 'c_6501'}` },
    accessRights: 'open',
    ...(rights.startsWith('https:') && { license: rights }),
    publisher: dc.publisher?.[0] ?? 'Demo Research Institute',
    publicationYear: issued.slice(0, 4),
    dates: { issued },
    language: dc.language?.[0] ?? 'en',
    files: [{ url: `https://repo.example.org/files/${id}/main`, mediaType: format, size: 10000 + int(5_000_000), access: 'open' }],
  };
}

/** Turns a generated record into a store item the way the loader does; throws if the record format refuses it. */
export function toItem(rec: GeneratedRecord, formats: FormatRegistry, index: number): ItemInput {
  const r = jsonToItem(rec, formats, `bench:${index + 1}`);
  if ('refusals' in r) throw new Error(`generated record refused: ${JSON.stringify(r.refusals)}`);
  // A generated repository has ten years of history: its datestamps are kept, as a migration keeps them.
  return { ...r.item, keepDatestamp: true };
}

/** What a load did. */
export interface LoadResult {
  readonly records: number;
  readonly seconds: number;
  /** Bytes of the oai_dc XML of the records' Dublin Core (live records only). */
  readonly oaiDcBytes: number;
  readonly live: number;
}

/**
 * Generates `total` records into an empty store, `batch` records per
 * `writeItems` call, each batch in its own transaction (so a 1,000,000-record
 * load does not hold one transaction open for minutes). `onProgress` is
 * called after each batch.
 */
export async function loadRecords(
  store: TransactionalStore,
  formats: FormatRegistry,
  total: number,
  options: { batch?: number; onProgress?: (done: number) => void } = {},
): Promise<LoadResult> {
  const batchSize = options.batch ?? 2000;
  const started = process.hrtime.bigint();
  await store.putSets(BENCH_SETS);
  let bytes = 0;
  let live = 0;
  for (let start = 0; start < total; start += batchSize) {
    const items: ItemInput[] = [];
    for (let i = start; i < Math.min(total, start + batchSize); i++) {
      const item = toItem(generateRecord(i, total), formats, i);
      // The oai_dc the pipeline writes from the record's Dublin Core (without the POI it may add).
      if (item.fields !== undefined) {
        bytes += Buffer.byteLength(dublinCoreToOaiDc(item.fields.dc));
        live++;
      }
      items.push(item);
    }
    await store.transaction((tx) => tx.writeItems(items));
    options.onProgress?.(Math.min(total, start + batchSize));
  }
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  return { records: total, seconds, oaiDcBytes: bytes, live };
}
