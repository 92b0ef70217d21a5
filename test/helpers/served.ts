/**
 * A record as a repository serving every format a default configuration
 * offers (the built-in ones but the opt-in rioxx and qdc) would serve it:
 * the XML given under its prefix, prepared by the write pipeline's pure
 * stage (lib/pipeline/prepare.ts `prepareItem`: lifted, every format written
 * from the model), and what the readiness check sees of it. For tests that
 * follow a real record from what was published to what is served.
 */
import { CheckTally, PROFILES, type CheckItem, type ProfileName } from '../../lib/check/profiles';
import { BUILT_IN_FORMATS, registryFromDeclarations } from '../../lib/formats/registry';
import { dublinCoreOf } from '../../lib/formats/oai-dc';
import { createIdPolicy } from '../../lib/ids/policy';
import { prepareItem, type PreparedItem } from '../../lib/pipeline/prepare';
import { collectionsOf } from '../../server/loader/read-inputs';
import { readOaiXml } from '../../server/loader/read-oai-xml';
import { fixtureText } from './xml-fixtures';

const formats = registryFromDeclarations(
  BUILT_IN_FORMATS.filter((f) => f.optIn !== true).map((f) => ({
    prefix: f.prefix,
    kind: 'builtin' as const,
    options: f.prefix === 'edm' ? { dataProvider: 'Example Museum', provider: 'Example Aggregator' } : {},
  })),
);
const preparation = { formats, policy: createIdPolicy({ namespace: 'example.org' }) };

/** Prepares a record given as XML under a prefix, as the loader's pipeline does (with the POI in oai_dc when asked: `poiInDublinCore`). */
export function serve(prefix: string, xml: string, internalId = 'r1', options: { poiInDublinCore?: boolean } = {}): PreparedItem {
  return prepareItem({ internalId, metadata: { [prefix]: xml } }, { ...preparation, ...options });
}

/**
 * The metadata of the record with this OAI identifier in a saved OAI-PMH
 * response, as the text the provider wrote (its root declares its own
 * namespaces, as OAI-PMH providers' records do).
 */
export function recordIn(file: readonly string[], identifier: string): string {
  for (const m of fixtureText(...file).matchAll(/<record>([\s\S]*?)<\/record>/g)) {
    const body = m[1] as string;
    if (!body.includes(`<identifier>${identifier}</identifier>`)) continue;
    const metadata = /<metadata>([\s\S]*)<\/metadata>/.exec(body);
    if (metadata) return (metadata[1] as string).trim();
  }
  throw new Error(`${file.join('/')} has no record ${identifier} with metadata`);
}

/** What the readiness check sees of a prepared item. */
export function checkItemOf(p: PreparedItem): CheckItem {
  return {
    internalId: p.internalId,
    identifier: `oai:example.org:${p.internalId}`,
    datestamp: 0,
    deleted: false,
    sets: [],
    fields: p.fields ?? { dc: {} },
    formats: Object.keys(p.metadata),
    ...(p.metadata.oai_dc !== undefined && { oaiDc: dublinCoreOf(p.metadata.oai_dc) }),
  };
}

/** The rules of a profile an item fails, each as `id: field: reason` of its failure. */
export function failures(profile: ProfileName, item: CheckItem): string[] {
  const t = new CheckTally(PROFILES[profile]);
  t.add([item]);
  return t.report().rules.flatMap((r) => r.failures.map((f) => `${r.id}: ${f.field}: ${f.reason}`));
}

/**
 * The records of a bare fixture file as the loader reads them: one
 * document, or each record of a collection (MARCXML `collection`, MODS
 * `modsCollection`) as a document of its own.
 */
export async function recordsOf(...file: string[]): Promise<string[]> {
  const out: string[] = [];
  const chunks = (async function* () {
    yield fixtureText(...file);
  })();
  for await (const ev of readOaiXml(chunks, 'bare', undefined, collectionsOf(formats))) {
    if (ev.kind === 'fault') throw new Error(`${file.join('/')}: ${ev.reason}`);
    if (ev.kind === 'record' && ev.metadata !== undefined) out.push(ev.metadata);
  }
  return out;
}
