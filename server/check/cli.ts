/**
 * `oai-steward check --profile NAME [--json] [--batch-size N]`: reads the
 * whole store a page at a time (memory holds one page and the tallies) and
 * reports, rule by rule, how many records satisfy the profile's rules
 * (lib/check/profiles.ts) and up to five that do not. Exit status: 0 every
 * mandatory rule met, 1 a mandatory rule failed, 2 a usage error.
 */
import { CheckTally, formatReport, PROFILE_NAMES, PROFILES, type CheckItem, type ProfileName } from '../../lib/check/profiles';
import type { ItemScan, ScannedItem } from '../../lib/store';
import type { FormatRegistry } from '../../lib/formats/registry';
import { liftStored } from '../../lib/pipeline/lift';
import { oaiDcOf, type Preparation } from '../../lib/pipeline/prepare';
import { isValidOaiIdentifier } from '../../lib/ids/oai-identifier';
import { poiFromOaiIdentifier } from '../../lib/ids/poi';
import type { DublinCore } from '../../lib/model/dublin-core';
import type { RecordFields } from '../../lib/model/record';
import type { CliIo } from '../loader/cli';

export const CHECK_USAGE = `usage: oai-steward check --profile ${PROFILE_NAMES.join('|')} [--json] [--batch-size N]

  Checks every record in the store against an aggregator's guideline and
  reports, rule by rule, how many records satisfy it and up to five that do
  not (with the field and the reason). Each rule names its guideline section.

  --json            the report as one JSON object
  --batch-size N    items read per page (default 500)

Exit status: 0 every mandatory rule is met, 1 a mandatory rule fails, 2 usage error.
`;

/** How the repository writes oai_dc from a record model (its configuration's `oaiDcProfile` and `poiInDublinCore`): what the oai_dc rules judge. */
export type OaiDcWriting = Pick<Preparation, 'oaiDcProfile' | 'poiInDublinCore'>;

/** What the check needs of an opened provider. */
export interface CheckDeps {
  readonly store: ItemScan;
  /** The formats offered, whose readers lift the model of an item stored without one. */
  readonly formats: FormatRegistry;
  readonly oaiDc: OaiDcWriting;
  close(): Promise<void>;
}

/**
 * The Dublin Core an item disseminates as oai_dc, from its model: what the
 * oai_dc writer makes of the model (lib/pipeline/prepare.ts `oaiDcOf`: the
 * profile's terms, the POI) when the pipeline wrote its oai_dc; the model's
 * own Dublin Core when the oai_dc was given as XML (its model was lifted
 * from that XML, or says what it says); none without oai_dc.
 */
function servedDublinCore(item: ScannedItem, model: RecordFields, writing: OaiDcWriting): DublinCore | undefined {
  if (typeof item.metadata.oai_dc !== 'string') return undefined;
  if (item.fields === undefined || item.written?.includes('oai_dc') !== true) return model.dc;
  return oaiDcOf(model, writing, isValidOaiIdentifier(item.identifier) ? poiFromOaiIdentifier(item.identifier) : undefined);
}

/**
 * The item as the rules see it: its record model (the stored one, or lifted
 * from its stored XML when the store holds none: written before the pipeline), the
 * Dublin Core it serves as oai_dc, and the formats it is disseminated in.
 *
 * @example toCheckItem(scanned, registry, { oaiDcProfile: 'plain', poiInDublinCore: true }) // { …header, fields: { dc: { title: ['…'] } }, oaiDc: { title: ['…'] }, formats: ['oai_dc'] }
 */
export function toCheckItem(item: ScannedItem, formats: FormatRegistry, writing: OaiDcWriting): CheckItem {
  const fields = item.fields ?? liftStored(item.metadata, formats);
  const oaiDc = servedDublinCore(item, fields, writing);
  return {
    internalId: item.internalId,
    identifier: item.identifier,
    datestamp: item.datestamp,
    deleted: item.deleted,
    sets: item.sets,
    fields,
    ...(oaiDc !== undefined && { oaiDc }),
    formats: Object.keys(item.metadata).filter((p) => typeof item.metadata[p] === 'string'),
  };
}

/** Runs the command; returns the exit status. */
export async function runCheckCommand(args: readonly string[], open: () => Promise<CheckDeps>, io: Pick<CliIo, 'stdout' | 'stderr'>): Promise<number> {
  let profile: ProfileName | undefined;
  let json = false;
  let batch = 500;
  for (let i = 0; i < args.length; i++) {
    const a = args[i] as string;
    const value = (): string | undefined => (a.includes('=') ? a.slice(a.indexOf('=') + 1) : args[++i]);
    if (a === '--help' || a === '-h') {
      io.stdout.write(CHECK_USAGE);
      return 0;
    } else if (a === '--json') json = true;
    else if (a === '--profile' || a.startsWith('--profile=')) {
      const v = value();
      if (!(PROFILE_NAMES as readonly string[]).includes(v ?? '')) {
        io.stderr.write(`oai-steward check: --profile must be one of ${PROFILE_NAMES.join(', ')}, not ${JSON.stringify(v ?? '')}\n\n${CHECK_USAGE}`);
        return 2;
      }
      profile = v as ProfileName;
    } else if (a === '--batch-size' || a.startsWith('--batch-size=')) {
      const v = Number(value());
      if (!Number.isInteger(v) || v < 1 || v > 100000) {
        io.stderr.write('oai-steward check: --batch-size must be an integer from 1 to 100000\n');
        return 2;
      }
      batch = v;
    } else {
      io.stderr.write(`oai-steward check: unknown argument ${JSON.stringify(a)}\n\n${CHECK_USAGE}`);
      return 2;
    }
  }
  if (profile === undefined) {
    io.stderr.write(`oai-steward check: --profile is required\n\n${CHECK_USAGE}`);
    return 2;
  }
  const deps = await open();
  try {
    const tally = new CheckTally(PROFILES[profile]);
    let after = 0;
    for (;;) {
      const page = await deps.store.scanItems(after, batch);
      if (page.length === 0) break;
      tally.add(page.map((s) => toCheckItem(s, deps.formats, deps.oaiDc)));
      after = (page[page.length - 1] as ScannedItem).pk;
    }
    const report = tally.report();
    io.stdout.write(json ? `${JSON.stringify(report)}\n` : formatReport(report));
    return report.passed ? 0 : 1;
  } finally {
    await deps.close();
  }
}
