/**
 * Writes N generated records (bench/generate.ts, the benchmark's own
 * repository: Dublin Core and the structured record fields every built-in
 * format is crosswalked from) as NDJSON, the input `oai-steward load` reads,
 * so the CLI's load rate can be measured and profiled on the data the direct
 * write path loads. The sets file beside it declares the sets they use.
 *
 *   node dist/bench/ndjson.js [--records N] OUT.ndjson    (writes OUT.ndjson and OUT.sets.json)
 */
import fs from 'node:fs';
import { once } from 'node:events';
import { BENCH_SETS, generateRecord } from './generate';

/**
 * Writes `total` generated records to `file` as NDJSON and their set
 * declarations to `setsFile`; resolves when both are on disk.
 *
 * @example await writeBenchNdjson('/tmp/records.ndjson', '/tmp/sets.json', 1000);
 */
export async function writeBenchNdjson(file: string, setsFile: string, total: number): Promise<void> {
  fs.writeFileSync(setsFile, JSON.stringify(BENCH_SETS));
  const out = fs.createWriteStream(file);
  for (let i = 0; i < total; i++) {
    if (!out.write(`${JSON.stringify(generateRecord(i, total))}\n`)) await once(out, 'drain');
  }
  out.end();
  await once(out, 'finish');
}

if (require.main === module) {
  const args = process.argv.slice(2);
  const at = args.indexOf('--records');
  const total = at >= 0 ? Number(args[at + 1]) : 100_000;
  const file = args.filter((a, i) => !a.startsWith('--') && args[i - 1] !== '--records')[0];
  if (!file || !Number.isSafeInteger(total) || total < 1) {
    process.stderr.write('usage: node dist/bench/ndjson.js [--records N] OUT.ndjson\n');
    process.exit(2);
  }
  const setsFile = file.replace(/\.ndjson$/, '') + '.sets.json';
  writeBenchNdjson(file, setsFile, total).then(
    () => process.stdout.write(`${file} (${total} records), ${setsFile}\n`),
    (err: unknown) => {
      process.stderr.write(`${String(err)}\n`);
      process.exit(1);
    },
  );
}
