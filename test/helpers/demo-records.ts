/**
 * What a harvester of the demo repository must see, computed from the seed
 * data (seeds/demo/records.ndjson) and the identifier policy the server uses
 * by default, independently of the server's store and rendering: the
 * expectation of the protocol, interoperability, browser and loader tests.
 * The seed file is read once per test process.
 */
import fs from 'node:fs';
import path from 'node:path';
import { createIdPolicy } from '../../lib/ids/policy';

/** The namespace-identifier of the demo repository (OAI_NAMESPACE's default). */
export const DEMO_NAMESPACE = 'demo.oai-steward.org';

/** The demo repository's files (seeds/demo/). */
export const DEMO_RECORDS = path.resolve(__dirname, '..', '..', 'seeds', 'demo', 'records.ndjson');
export const DEMO_SETS = path.resolve(__dirname, '..', '..', 'seeds', 'demo', 'sets.json');

/** One line of seeds/demo/records.ndjson, as the project's record format writes it. */
export interface DemoSeedRecord {
  readonly id: string;
  readonly deleted: boolean;
  readonly datestamp: string;
  readonly sets?: readonly string[];
  readonly dc: Readonly<Record<string, readonly string[]>>;
  /** The structured record fields (docs/record-format.md, "Record fields"), on most live items. */
  readonly identifiers?: readonly { readonly type: string; readonly value: string }[];
  readonly accessRights?: string;
  readonly resourceType?: { readonly coar?: string };
  readonly files?: readonly { readonly url: string }[];
}

/** One seeded item as the wire shows it. */
export interface DemoRecord {
  readonly internalId: string;
  /** Its oai-identifier under the `auto` policy. */
  readonly identifier: string;
  readonly deleted: boolean;
  /** `YYYY-MM-DDThh:mm:ssZ`, as seeded. */
  readonly datestamp: string;
  /** Its first dc:title, whitespace-normalized; empty when it has none. */
  readonly title: string;
  readonly sets: readonly string[];
}

let seed: readonly DemoSeedRecord[] | undefined;
let records: readonly DemoRecord[] | undefined;

/** Every line of seeds/demo/records.ndjson, parsed once, in file order. */
export function demoSeed(): readonly DemoSeedRecord[] {
  seed ??= fs
    .readFileSync(DEMO_RECORDS, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as DemoSeedRecord);
  return seed;
}

/** Every item of the demo repository as the wire shows it, in file order. */
export function demoRecords(): readonly DemoRecord[] {
  if (records) return records;
  const policy = createIdPolicy({ namespace: DEMO_NAMESPACE, mode: 'auto' });
  records = demoSeed().map((r) => ({
    internalId: r.id,
    identifier: policy.map(r.id).identifier,
    deleted: r.deleted,
    datestamp: r.datestamp,
    title: normalizeSpace(r.dc?.title?.[0] ?? ''),
    sets: r.sets ?? [],
  }));
  return records;
}

/** The demo records by oai-identifier. */
export function demoByIdentifier(): ReadonlyMap<string, DemoRecord> {
  return new Map(demoRecords().map((r) => [r.identifier, r]));
}

/** XPath's normalize-space: trims and collapses runs of XML whitespace. */
export function normalizeSpace(s: string): string {
  return s.replace(/[ \t\r\n]+/g, ' ').trim();
}

/**
 * Throws unless `seen` holds every identifier of `expected` exactly once and
 * nothing else; the message lists the missing, unexpected and repeated ones.
 */
export function assertExactlyOnce(seen: readonly string[], expected: Iterable<string>, what: string): void {
  const want = new Set(expected);
  const counts = new Map<string, number>();
  for (const id of seen) counts.set(id, (counts.get(id) ?? 0) + 1);
  const missing = [...want].filter((id) => !counts.has(id));
  const unexpected = [...counts.keys()].filter((id) => !want.has(id));
  const repeated = [...counts].filter(([, n]) => n > 1).map(([id, n]) => `${id} ×${n}`);
  if (missing.length + unexpected.length + repeated.length > 0) {
    throw new Error(
      `${what}: expected each of ${want.size} identifiers exactly once, saw ${seen.length}\n` +
        `missing (${missing.length}): ${missing.slice(0, 20).join(' | ')}\n` +
        `unexpected (${unexpected.length}): ${unexpected.slice(0, 20).join(' | ')}\n` +
        `repeated (${repeated.length}): ${repeated.slice(0, 20).join(' | ')}`,
    );
  }
}

/**
 * The oai-identifiers a harvest of marc21 or oai_openaire must list, from
 * seeds/demo alone: every tombstone (listed in every format), and the live
 * items the format's crosswalk makes a record for (marc21: a title, which
 * every demo item has; oai_openaire: the structured fields with a COAR type
 * and access rights, the POI standing in for a missing DOI).
 */
export function demoIdentifiersIn(prefix: 'marc21' | 'oai_openaire'): string[] {
  const seeds = new Map(demoSeed().map((r) => [r.id, r]));
  return demoRecords()
    .filter((r) => {
      const s = seeds.get(r.internalId);
      if (r.deleted) return true;
      return prefix === 'marc21' ? r.title !== '' : s?.resourceType?.coar !== undefined && s.accessRights !== undefined;
    })
    .map((r) => r.identifier);
}
