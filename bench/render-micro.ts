/**
 * In-process micro-benchmark of the server's per-record work on a
 * ListRecords harvest, without a database or HTTP: renders pages of
 * realistic records (bench/generate.ts, as the store returns them) with
 * `renderResponse`, encodes each page to UTF-8 as the server does, and
 * prints records/s for the whole page and for its parts (the outgoing
 * fragment check, datestamp formatting).
 *
 *   npx tsx bench/render-micro.ts [--records N] [--page P] [--rounds R]
 *
 * Each figure is the best of R rounds over N records (the machine is shared:
 * the best round is the least disturbed one).
 */
import { dublinCoreToOaiDc } from '../lib/formats/oai-dc';
import { createFormatRegistry } from '../lib/formats/registry';
import { formatDatestamp } from '../lib/oai/dates';
import type { OaiResponse } from '../lib/oai/response';
import type { ItemRecord } from '../lib/store';
import { checkFragment } from '../lib/xml/fragment';
import { renderResponse } from '../lib/oai/render';
import { generateRecord, toItem } from './generate';

function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(name);
  const v = i >= 0 ? Number(process.argv[i + 1]) : fallback;
  if (!Number.isInteger(v) || v < 1) throw new Error(`${name} needs a positive integer`);
  return v;
}

const total = arg('--records', 20000);
const pageSize = arg('--page', 100);
const rounds = arg('--rounds', 7);

/** The records a store would return: oai_dc as the write path stores it, datestamps in seconds. */
function makeRecords(): ItemRecord[] {
  const formats = createFormatRegistry();
  const out: ItemRecord[] = [];
  for (let i = 0; i < total; i++) {
    const g = generateRecord(i, total);
    const item = toItem(g, formats, i);
    out.push({
      pk: i + 1,
      internalId: item.internalId,
      identifier: `oai:bench.example.org:${item.internalId}`,
      datestamp: Date.parse(g.datestamp) / 1000,
      deleted: g.deleted,
      sets: [...g.sets].sort(),
      metadata: g.deleted || item.fields === undefined ? null : dublinCoreToOaiDc(item.fields.dc),
    });
  }
  return out;
}

function pagesOf(records: readonly ItemRecord[]): OaiResponse[] {
  const pages: OaiResponse[] = [];
  for (let start = 0; start < records.length; start += pageSize) {
    const last = start + pageSize >= records.length;
    pages.push({
      responseDate: 1_700_000_000,
      baseURL: 'http://127.0.0.1:3000/oai',
      requestArgs: {
        verb: 'ListRecords',
        resumptionToken: '1.eyJ2IjoiTFIiLCJwIjoib2FpX2RjIiwidSI6MTcwMDAwMDAwMCwiYSI6WzE0MjAwNzA0MDAsMTAwXSwiYyI6MTAwLCJuIjoyMDAwMCwieCI6MTcwMDA4NjQwMH0.sig',
      },
      body: {
        kind: 'ListRecords',
        records: records.slice(start, start + pageSize),
        resumption: last
          ? { token: '', cursor: start, completeListSize: records.length }
          : { token: '1.xyz.sig', cursor: start, completeListSize: records.length, expirationDate: 1_700_086_400 },
      },
    });
  }
  return pages;
}

/** Best records/s of `rounds` runs of `work`, which handles every record once per run. */
function rate(work: () => number): number {
  let best = 0;
  for (let r = 0; r < rounds; r++) {
    const t = process.hrtime.bigint();
    const n = work();
    const s = Number(process.hrtime.bigint() - t) / 1e9;
    best = Math.max(best, n / s);
  }
  return best;
}

const records = makeRecords();
const pages = pagesOf(records);
let sink = 0;
const figures = {
  page: rate(() => {
    for (const p of pages) sink += Buffer.from(renderResponse(p), 'utf8').length;
    return records.length;
  }),
  check: rate(() => {
    for (const r of records) if (r.metadata !== null && checkFragment(r.metadata, ['xsi']) === null) sink++;
    return records.length;
  }),
  datestamp: rate(() => {
    for (const r of records) sink += formatDatestamp(r.datestamp).length;
    return records.length;
  }),
};
const fmt = (n: number): string => Math.round(n).toLocaleString('en-US').padStart(12);
process.stdout.write(
  `render-micro: ${total} records, ${pageSize} per page, best of ${rounds} (node ${process.version})\n` +
    `  whole page (render + UTF-8)  ${fmt(figures.page)} records/s\n` +
    `  fragment check alone         ${fmt(figures.check)} records/s\n` +
    `  datestamp formatting alone   ${fmt(figures.datestamp)} records/s\n` +
    `${JSON.stringify({ ...Object.fromEntries(Object.entries(figures).map(([k, v]) => [k, Math.round(v)])), sink: sink > 0 })}\n`,
);
