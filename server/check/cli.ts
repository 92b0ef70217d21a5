/**
 * `oai-steward check --profile NAME [--json] [--batch-size N]`: reads the
 * whole store a page at a time (memory holds one page and the tallies) and
 * reports, rule by rule, how many records satisfy the profile's rules
 * (lib/check/profiles.ts) and up to five that do not. Exit status: 0 every
 * mandatory rule met, 1 a mandatory rule failed, 2 a usage error.
 */
import { CheckTally, dublinCoreOf, formatReport, PROFILE_NAMES, PROFILES, type CheckItem, type ProfileName } from '../../lib/check/profiles';
import type { ItemScan, ScannedItem } from '../../lib/store';
import type { CliIo } from '../loader/cli';

export const CHECK_USAGE = `usage: oai-steward check --profile ${PROFILE_NAMES.join('|')} [--json] [--batch-size N]

  Checks every record in the store against an aggregator's guideline and
  reports, rule by rule, how many records satisfy it and up to five that do
  not (with the field and the reason). Each rule names its guideline section.

  --json            the report as one JSON object
  --batch-size N    items read per page (default 500)

Exit status: 0 every mandatory rule is met, 1 a mandatory rule fails, 2 usage error.
`;

/** What the check needs of an opened provider. */
export interface CheckDeps {
  readonly store: ItemScan;
  close(): Promise<void>;
}

/**
 * The item as the rules see it: the stored fields, or the Dublin Core of its
 * stored oai_dc when the store holds none (records loaded as XML).
 *
 * @example toCheckItem(scanned) // { …header, fields: { dc: { title: ['…'] } }, metadata: Map { 'oai_dc' => '<oai_dc:dc …' } }
 */
export function toCheckItem(item: ScannedItem): CheckItem {
  const metadata = new Map(Object.entries(item.metadata));
  return {
    internalId: item.internalId,
    identifier: item.identifier,
    datestamp: item.datestamp,
    deleted: item.deleted,
    sets: item.sets,
    fields: item.fields ?? { dc: dublinCoreOf(item.metadata.oai_dc ?? null) },
    metadata,
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
      tally.add(page.map(toCheckItem));
      after = (page[page.length - 1] as ScannedItem).pk;
    }
    const report = tally.report();
    io.stdout.write(json ? `${JSON.stringify(report)}\n` : formatReport(report));
    return report.passed ? 0 : 1;
  } finally {
    await deps.close();
  }
}
