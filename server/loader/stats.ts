/**
 * `oai-steward stats` as text for a terminal (the numbers come from the
 * store, lib/store/write.ts `Store.stats`, and the loader's last run from the
 * report of runs, server/runs.ts `lastLoad`).
 */
import type { StoreStats } from '../../lib/store';
import type { LoadFigures } from '../../lib/run-report';

/**
 * The statistics as text for a terminal.
 *
 * @example process.stdout.write(formatStats(await provider.store.stats()));
 */
export function formatStats(s: StoreStats, lastLoad: LoadFigures | null = null): string {
  const lines = [
    `items      ${s.items} (${s.live} live, ${s.deleted} deleted)`,
    `earliest   ${s.earliestDatestamp ?? '-'}`,
    `latest     ${s.latestDatestamp ?? '-'}`,
    '',
    'formats',
  ];
  const formats = Object.entries(s.formats);
  if (formats.length === 0) lines.push('  (none)');
  for (const [prefix, f] of formats) lines.push(`  ${prefix.padEnd(24)} ${String(f.items).padStart(8)}  (${f.deleted} deleted)`);
  lines.push('', 'sets (items include those of sub-sets)');
  const sets = Object.entries(s.sets);
  if (sets.length === 0) lines.push('  (none)');
  for (const [spec, v] of sets) lines.push(`  ${spec.padEnd(24)} ${String(v.items).padStart(8)}  (${v.deleted} deleted)  ${v.name}`);
  lines.push('', 'last load');
  if (lastLoad === null) lines.push('  (none on this store)');
  else {
    lines.push(
      `  finished   ${new Date(lastLoad.finished).toISOString().replace(/\.\d{3}Z$/, 'Z')} (${lastLoad.outcome}${lastLoad.error === null ? '' : `: ${lastLoad.error}`})`,
      `  records    ${lastLoad.records} written, ${lastLoad.refusals} refused, ${lastLoad.read} read`,
      `  duration   ${lastLoad.seconds.toFixed(1)} s`,
    );
  }
  return `${lines.join('\n')}\n`;
}
