/**
 * What the dump tests share: a repository configuration offering every
 * built-in format and one declared only in the configuration (foreign XML,
 * served as given), a source store with every kind of item, and every
 * answer a repository gives (each verb, format, set and identifier) to
 * compare two stores byte for byte.
 */
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { handleRequest, type ProviderContext } from '../../lib/oai';
import { renderResponse } from '../../lib/oai/render';
import { DC_NS, OAI_DC_NS, OAI_NS, PROVENANCE_NS } from '../../lib/xml/namespaces';
import { loadConfig } from '../../server/config';
import { openProvider, type Provider } from '../../server/provider';
import { DEMO_NAMESPACE, DEMO_RECORDS, DEMO_SETS } from '../helpers/demo-records';
import { cli, ROOT, type CliDb } from '../loader/helpers';

export const THESIS_NS = 'urn:example:thesis-record';
export const THESIS_XSD = path.join(ROOT, 'test', 'fixtures', 'formats', 'declared', 'thesis-record.xsd');
export const PREFIXES = ['oai_dc', 'oai_openaire', 'datacite', 'oai_datacite', 'marc21', 'mods', 'thesis_rec'] as const;

/** Writes the test repository's configuration file into `dir`; returns the environment naming it. */
export function repositoryEnv(dir: string): NodeJS.ProcessEnv {
  const file = path.join(dir, 'oai-steward.yaml');
  const builtIn = PREFIXES.filter((p) => p !== 'thesis_rec')
    .map((p) => `  - prefix: ${p}\n`)
    .join('');
  fs.writeFileSync(
    file,
    `formats:\n${builtIn}  - prefix: thesis_rec\n    namespace: ${THESIS_NS}\n    schema: https://schemas.example.org/thesis-record/1.0/thesis-record.xsd\n    xsd: ${THESIS_XSD}\n`,
  );
  return {
    OAI_CONFIG: file,
    OAI_PAGE_SIZE: '40',
    OAI_TOKEN_SECRET: 'dump-test-secret',
    OAI_BASE_URL: 'http://repo.example.org/oai',
    OAI_SEED_DEMO: 'false',
    // One repository's publication log key for the store and every copy of it, as an operator carries it
    // (docs/identifiers.md): a copy made from a dump then names the same log in Identify.
    OAI_LOG_KEY_FILE: path.join(dir, 'publication-log.key'),
  };
}

export function thesis(title: string): string {
  return `<thesisRecord xmlns="${THESIS_NS}" year="2024"><title>${title}</title><degree>doctor</degree></thesisRecord>`;
}

/** A saved ListRecords page of another repository: harvested records, which the loader gives a provenance container. */
function harvestPage(): string {
  const rec = (id: string, datestamp: string, title: string): string =>
    `<record><header><identifier>oai:other.example.org:${id}</identifier><datestamp>${datestamp}</datestamp><setSpec>history</setSpec></header>` +
    `<metadata><oai_dc:dc xmlns:oai_dc="${OAI_DC_NS}" xmlns:dc="${DC_NS}"><dc:title>${title}</dc:title></oai_dc:dc></metadata></record>`;
  return (
    `<?xml version="1.0" encoding="UTF-8"?>\n<OAI-PMH xmlns="${OAI_NS}"><responseDate>2025-01-02T00:00:00Z</responseDate>` +
    `<request verb="ListRecords" metadataPrefix="oai_dc">http://other.example.org/oai</request><ListRecords>` +
    `${rec('h1', '2025-01-01T10:00:00Z', 'Harvested one')}${rec('h2', '2025-01-01T11:00:00Z', 'Harvested two')}</ListRecords></OAI-PMH>\n`
  );
}

/** The provenance namespace, for tests that look for the harvested records' containers. */
export { PROVENANCE_NS };

/**
 * Fills a store (through the CLI, as a user does) with every kind of item:
 * the demo repository (records giving their model, sets with descriptions,
 * tombstones), a record with XML of a declared format, a record whose model
 * is lifted from a DataCite file, harvested records with provenance, and a
 * record deleted afterwards.
 */
export async function fillSource(db: CliDb, env: NodeJS.ProcessEnv): Promise<void> {
  const extra = path.join(db.dir, 'extra.ndjson');
  fs.writeFileSync(
    extra,
    [
      { id: 'thesis 1', datestamp: '2025-02-01T00:00:00Z', sets: ['theses'], dc: { title: ['On lattices'] }, metadata: { thesis_rec: thesis('On lattices') } },
      { id: 'gone soon', datestamp: '2025-02-02T00:00:00Z', sets: ['math'], dc: { title: ['Withdrawn'] } },
    ]
      .map((r) => JSON.stringify(r))
      .join('\n') + '\n',
  );
  // Models lifted from a DataCite kernel-3 file (read into the model, not served as given) and a kernel-4 one (served as given).
  const lifted = path.join(db.dir, 'lifted%201.xml');
  fs.copyFileSync(path.join(ROOT, 'test', 'fixtures', 'readers', 'datacite', 'datacite_dataset.xml'), lifted);
  const lifted2 = path.join(db.dir, 'lifted%202.xml');
  fs.copyFileSync(path.join(ROOT, 'test', 'fixtures', 'readers', 'datacite', 'datacite-example-full-v4.6.xml'), lifted2);
  const harvest = path.join(db.dir, 'harvest.xml');
  fs.writeFileSync(harvest, harvestPage());
  const run = await cli(db, ['load', '--sets', DEMO_SETS, DEMO_RECORDS, extra, lifted, lifted2, harvest], { env });
  if (run.code !== 0) throw new Error(`loading the source failed:\n${run.stderr}`);
  const del = await cli(db, ['delete', 'gone soon'], { env });
  if (del.code !== 0) throw new Error(`deleting failed:\n${del.stderr}`);
  // Set departures: a record moved to another set, and a set retired (its members leave it).
  const move = path.join(db.dir, 'move.ndjson');
  fs.writeFileSync(
    move,
    `${JSON.stringify({ id: 'thesis 1', datestamp: '2025-03-01T00:00:00Z', sets: ['math'], dc: { title: ['On lattices'] }, metadata: { thesis_rec: thesis('On lattices') } })}\n`,
  );
  const moved = await cli(db, ['load', move], { env });
  if (moved.code !== 0) throw new Error(`moving failed:\n${moved.stderr}`);
  const retired = await cli(db, ['sets', 'retire', RETIRED_SET], { env });
  if (retired.code !== 0) throw new Error(`retiring failed:\n${retired.stderr}`);
}

/** The set {@link fillSource} retires: ListSets no longer shows it, a harvest of it reports its former members deleted. */
export const RETIRED_SET = 'history';

/** Opens a provider on a CLI test database with the test repository's configuration. */
export function openOn(db: CliDb, env: NodeJS.ProcessEnv): Promise<Provider> {
  return openProvider(loadConfig({ DATABASE_URL: db.url, LOG_LEVEL: 'silent', OAI_NAMESPACE: DEMO_NAMESPACE, ...env }));
}

/** A list request followed through its resumption tokens: every page's XML. */
async function pages(ctx: ProviderContext, args: [string, string][], now: number): Promise<string[]> {
  const out: string[] = [];
  let pairs = args;
  for (let guard = 0; guard < 10_000; guard++) {
    const res = await handleRequest(ctx, pairs, now);
    out.push(renderResponse(res));
    const token = 'resumption' in res.body ? res.body.resumption?.token : undefined;
    if (!token) return out;
    pairs = [
      ['verb', args[0]?.[1] ?? ''],
      ['resumptionToken', token],
    ];
  }
  throw new Error('a list that never ends');
}

/**
 * Every answer of a repository at one moment: Identify, ListMetadataFormats
 * (and per identifier), ListSets, ListIdentifiers and ListRecords per format
 * and per format and set (every page), GetRecord per identifier and format.
 * Keyed by the request, so two repositories' answers compare entry by entry.
 */
export async function everyAnswer(ctx: ProviderContext, now: number): Promise<Map<string, string>> {
  const answers = new Map<string, string>();
  const ask = async (args: [string, string][]): Promise<string[]> => {
    const xml = await pages(ctx, args, now);
    xml.forEach((x, i) => answers.set(`${args.map(([k, v]) => `${k}=${v}`).join('&')}#${i}`, x));
    return xml;
  };
  await ask([['verb', 'Identify']]);
  await ask([['verb', 'ListMetadataFormats']]);
  const listed = (await ask([['verb', 'ListSets']])).flatMap((x) => [...x.matchAll(/<setSpec>([^<]+)<\/setSpec>/g)].map((m) => m[1] as string));
  const sets = [...new Set([...listed, RETIRED_SET])];
  const identifiers = new Set<string>();
  for (const prefix of PREFIXES) {
    for (const x of await ask([
      ['verb', 'ListIdentifiers'],
      ['metadataPrefix', prefix],
    ])) {
      for (const m of x.matchAll(/<identifier>([^<]+)<\/identifier>/g)) identifiers.add((m[1] as string).replace(/&amp;/g, '&'));
    }
    await ask([
      ['verb', 'ListRecords'],
      ['metadataPrefix', prefix],
    ]);
    for (const set of sets)
      await ask([
        ['verb', 'ListRecords'],
        ['metadataPrefix', prefix],
        ['set', set],
      ]);
  }
  for (const id of identifiers) {
    await ask([
      ['verb', 'ListMetadataFormats'],
      ['identifier', id],
    ]);
    for (const prefix of PREFIXES)
      await ask([
        ['verb', 'GetRecord'],
        ['metadataPrefix', prefix],
        ['identifier', id],
      ]);
  }
  return answers;
}

/** The manifest a dump folder holds. */
export function readManifest(dir: string): {
  snapshot: string;
  since: string | null;
  items: number;
  deleted: number;
  sets: number;
  datestamps: { earliest: string | null; latest: string | null };
  files: { name: string; kind: string; metadataPrefix?: string; records: number; deleted: number; bytes: number; sha256: string }[];
} {
  return JSON.parse(fs.readFileSync(path.join(dir, 'manifest.json'), 'utf8')) as ReturnType<typeof readManifest>;
}

/** A dump file's content, decompressed. */
export function gunzipFile(dir: string, name: string): string {
  return zlib.gunzipSync(fs.readFileSync(path.join(dir, name))).toString('utf8');
}
