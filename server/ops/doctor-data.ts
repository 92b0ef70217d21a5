/**
 * The doctor's checks of what the store holds: its tables against what the
 * migrations make, every stored record against its digest, every published
 * identifier against the registry, and oai_dc for every live item (sampled
 * with --quick).
 */
import { checkFragment } from '../../lib/xml/fragment';
import { storedRecordHash } from '../../lib/pipeline/content-hash';
import { IdMappingError } from '../../lib/ids/policy';
import { policyOf } from '../conversion';
import { readerConfigOf } from '../conversion';
import { firstOf, ok, problem, restoreAdvice, warning, type DoctorCheck, type Finding } from './doctor-findings';

/**
 * The tables and indexes against the ones the migrations make on a new
 * store of the same kind: one dropped or altered outside oai-steward breaks
 * the next load or answer, and nothing else tells.
 */
export const tables: DoctorCheck = async ({ config, inspection }) => {
  if (inspection === null) return [];
  let drift;
  try {
    drift = await inspection.schemaDrift();
  } catch (err) {
    return [warning('tables', `the expected tables could not be made to compare with (${(err as Error).message.split('\n')[0]}): tables not checked`)];
  }
  const out: Finding[] = [];
  const fix = `the store was changed outside oai-steward: ${restoreAdvice(config)}`;
  for (const t of drift.missingTables) out.push(problem('tables', `table ${t} is missing: ${fix}`, { table: t }));
  for (const t of drift.alteredTables) out.push(problem('tables', `table ${t}: ${fix}`, { table: t.split(':')[0] }));
  for (const i of drift.missingIndexes)
    out.push(problem('tables', `index ${i} is missing (lists and loads slow down as the store grows): ${fix}`, { index: i }));
  for (const i of drift.alteredIndexes) out.push(problem('tables', `index ${i}: ${fix}`, { index: i.split(':')[0] }));
  return out.length > 0 ? out : [ok('tables', 'every table and index is as the migrations make it')];
};

/** Records a page of the scan, and how many the sampled (`--quick`) check reads at most. */
const PAGE = 500;

const QUICK_RECORDS = 2000;

/**
 * Every stored record (or, with `--quick`, a sample spread over the store),
 * tombstones too: its XML still a well-formed element (a record that is not
 * is served without its metadata), and its row still what its digest
 * (`records.hash`) was computed over, by the function the write path and
 * migration 017 compute it with (lib/pipeline/content-hash.ts
 * `storedRecordHash`). A record without a digest is one whose change
 * nothing can see: a problem, not a record to pass over. A format written on
 * demand stores no bytes to check (its row has no XML; the migration could
 * not digest it either): one without a digest is only worth knowing. One
 * page in memory at a time.
 */
export const records: DoctorCheck = async ({ config, inspection, quick }) => {
  if (inspection === null) return [];
  const every = quick ? Math.max(1, Math.ceil((await inspection.itemCount()) / (QUICK_RECORDS / 4))) : 1;
  let after: { pk: number; prefix: string } | null = null;
  let read = 0;
  const [broken, altered, undigested, onDemand] = [new Tally(), new Tally(), new Tally(), new Tally()];
  for (;;) {
    const page = await inspection.records(after, PAGE, every);
    for (const r of page) {
      // The item's published identifier: what a harvester, and the operator reloading it, knows it by.
      const where = `${r.identifier} ${r.prefix}`;
      const expected = storedRecordHash(r);
      if (expected === null) {
        if (r.hash === null) onDemand.add(where);
        continue;
      }
      read++;
      const bad = r.xml === null ? null : checkFragment(r.xml);
      if (bad !== null) broken.add(`${where}: ${bad}`);
      else if (r.hash === null) undigested.add(where);
      else if (expected !== r.hash) altered.add(where);
    }
    const last = page[page.length - 1];
    if (last === undefined || page.length < PAGE || (quick && read >= QUICK_RECORDS)) break;
    after = { pk: last.pk, prefix: last.prefix };
  }
  const scope = quick ? `${read} sampled stored records` : `all ${read} stored records`;
  const fix = 'load these records again from their source (oai-steward load FILE), or restore the last backup';
  const out: Finding[] = [];
  if (broken.count > 0)
    out.push(
      problem('records', `${broken.count} of ${scope} are no longer well-formed XML, served without their metadata (${broken.examples}): ${fix}`, {
        read,
        broken: broken.count,
      }),
    );
  if (altered.count > 0)
    out.push(
      problem(
        'records',
        `${altered.count} of ${scope} no longer match the digest they were stored with, changed outside oai-steward (${altered.examples}): ${fix}`,
        {
          read,
          altered: altered.count,
        },
      ),
    );
  if (undigested.count > 0)
    out.push(
      problem(
        'records',
        `${undigested.count} of ${scope} have no digest, so a change to them cannot be seen (${undigested.examples}): ` +
          `every record this version writes or migrates has one, so these were written outside it; ${restoreAdvice(config)}`,
        { read, undigested: undigested.count },
      ),
    );
  if (onDemand.count > 0)
    out.push(
      warning(
        'records',
        `${onDemand.count} formats written on demand have no digest (${onDemand.examples}): they keep no bytes to check; ` +
          'written before records had one, each is stamped anew when its item is next written, even if its own bytes stay the same',
        { onDemand: onDemand.count },
      ),
    );
  return out.some((f) => f.severity === 'problem')
    ? out
    : [ok('records', `${scope} are well-formed XML and match their digests`, { read, sampled: quick }), ...out];
};

/** How many of something a check found, with the first few for a person to look at. */
class Tally {
  count = 0;
  private readonly first: string[] = [];
  add(example: string): void {
    if (++this.count <= 3) this.first.push(example);
  }
  get examples(): string {
    return firstOf(this.first);
  }
}

/** Identifiers the `--quick` check reads at most. */
const QUICK_IDENTIFIERS = 2000;

/**
 * The configured namespace and id policy against the identifiers items were
 * published under: an identifier once published never changes (OAI-PMH 2.0
 * section 2.4), so a configuration that would make others is a mistake in
 * the configuration, not in the store.
 */
export const identifiers: DoctorCheck = async ({ config, inspection, quick }) => {
  if (inspection === null) return [];
  const policy = policyOf(readerConfigOf(config));
  const prefix = `oai:${config.namespace}:`;
  let after: string | null = null;
  let read = 0;
  let elsewhere = 0;
  let otherPolicy = 0;
  const namespaces = new Map<string, string>();
  const policyExamples: string[] = [];
  for (;;) {
    const page = await inspection.published(after, PAGE);
    for (const r of page) {
      read++;
      if (!r.identifier.startsWith(prefix)) {
        elsewhere++;
        const ns = /^oai:([^:]+):/.exec(r.identifier)?.[1] ?? r.identifier;
        if (!namespaces.has(ns)) namespaces.set(ns, r.identifier);
        continue;
      }
      let made: string;
      try {
        made = policy.map(r.internalId).identifier;
      } catch (err) {
        if (!(err instanceof IdMappingError)) throw err;
        made = '(none: the policy refuses it)';
      }
      if (made !== r.identifier && ++otherPolicy <= 3) policyExamples.push(`${r.identifier} from internal id ${JSON.stringify(r.internalId)}, now ${made}`);
    }
    const last = page[page.length - 1];
    if (last === undefined || page.length < PAGE || (quick && read >= QUICK_IDENTIFIERS)) break;
    after = last.identifier;
  }
  const scope = quick ? `${read} sampled items` : `${read} items`;
  const out: Finding[] = [];
  if (elsewhere > 0) {
    const [ns, example] = [...namespaces][0] as [string, string];
    out.push(
      problem(
        'identifiers',
        `${elsewhere} of ${scope} were published under the namespace ${[...namespaces.keys()].join(', ')} (e.g. ${example}), not the configured ${config.namespace}: ` +
          `Identify would announce ${config.namespace} beside them, and a published identifier never changes; set namespace back to ${ns} (namespace: or OAI_NAMESPACE)`,
        { namespaces: [...namespaces.keys()], items: elsewhere },
      ),
    );
  }
  if (otherPolicy > 0) {
    out.push(
      problem(
        'identifiers',
        `${otherPolicy} of ${scope} were published under identifiers the configured idPolicy ${config.idPolicy} does not make (${firstOf(policyExamples)}): ` +
          'set idPolicy back to the policy they were published under (idPolicy: or OAI_ID_POLICY)',
        { items: otherPolicy },
      ),
    );
  }
  return out.length > 0 ? out : [ok('identifiers', `${scope} published under ${config.namespace} as the idPolicy ${config.idPolicy} makes them`, { read })];
};

/**
 * Every live item has oai_dc (OAI-PMH 2.0 section 3.4): the write pipeline
 * refuses an item it cannot write one for, but one stored before it did (a
 * format declared and loaded alone) answers cannotDisseminateFormat for
 * oai_dc until it is loaded again with its oai_dc, or in a format a reader
 * lifts.
 */
export const oaiDc: DoctorCheck = async ({ inspection }) => {
  if (inspection === null) return [];
  const found = await inspection.withoutOaiDc(3);
  if (found.count === 0) return [ok('oai_dc', 'every live item has oai_dc')];
  const examples = found.examples.map((e) => `${e.identifier} (${e.prefixes.join(', ') || 'no format'})`).join(', ');
  return [
    problem(
      'oai_dc',
      `${found.count} live item${found.count === 1 ? ' has' : 's have'} no oai_dc, which OAI-PMH 2.0 section 3.4 requires of every item (${examples}${found.count > found.examples.length ? ', …' : ''}): ` +
        'load them again with their oai_dc, or in a format oai-steward reads (docs/loading.md#no-item-without-oai_dc), or delete them',
      { items: found.count, examples: found.examples.map((e) => e.identifier) },
    ),
  ];
};
