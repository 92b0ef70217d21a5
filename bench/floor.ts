/**
 * The floor of the benchmark: the least work a ListRecords or ListIdentifiers
 * harvest of this store can cost, measured in-process without HTTP. A bare
 * keyset scan over `(datestamp, pk)` with the driver alone (better-sqlite3 for
 * SQLite, pg for PostgreSQL), 100 rows a page plus one to know whether
 * another page exists, and each page assembled into one response string (the
 * envelope, headers with setSpecs, the stored metadata, a token), with
 * nothing checked, escaped or validated. No server can go below this on the
 * same database; the ratio of a real harvest to it says how much the server
 * adds.
 *
 * The SQL is written here on purpose, apart from server/db/: it measures the
 * database and the string work, not the project's store.
 */
import Database from 'better-sqlite3';

/** The part of pg's Client used here (pg ships no types, and @types/pg is not installed). */
interface PgClient {
  connect(): Promise<void>;
  query(q: { name: string; text: string; values: unknown[]; rowMode?: 'array' }): Promise<{ rows: unknown[] }>;
  end(): Promise<void>;
}

/** One list scanned end to end. */
export interface FloorFigures {
  readonly items: number;
  readonly pages: number;
  readonly seconds: number;
  readonly bytes: number;
}

/** A row as an array, in SELECT order (both drivers' array mode: no object per row, as the server reads them). */
type Row = [pk: number, identifier: string, datestamp: number | string, deleted: number | boolean, sets: string | null, xml?: string | null];

const PAGE = 100;

/**
 * The page query: the next PAGE + 1 rows after a keyset, with the item's
 * direct sets as the schema keeps them on its row (`items.direct_sets`,
 * joined by U+001F): the cheapest read of them this schema allows. A
 * record's datestamp is its own, so the list of one format is an ordered
 * range of `records (prefix, datestamp, item_pk)`; CROSS JOIN keeps `records`
 * the outer loop on SQLite, a range that stops after the limit.
 */
function pageSql(records: boolean, param: (i: number) => string): string {
  return (
    'SELECT i.pk, i.identifier, r.datestamp, i.deleted, i.direct_sets AS sets' +
    (records ? ', r.xml' : '') +
    ` FROM records r CROSS JOIN items i WHERE r.prefix = 'oai_dc' AND i.pk = r.item_pk` +
    ` AND (r.datestamp, r.item_pk) > (${param(1)}, ${param(2)}) ORDER BY r.datestamp, r.item_pk LIMIT ${PAGE + 1}`
  );
}

const HEAD =
  '<?xml version="1.0" encoding="UTF-8"?>\n<OAI-PMH xmlns="http://www.openarchives.org/OAI/2.0/" ' +
  'xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:schemaLocation="http://www.openarchives.org/OAI/2.0/ ' +
  'http://www.openarchives.org/OAI/2.0/OAI-PMH.xsd"><responseDate>2026-01-01T00:00:00Z</responseDate>';

/** Assembles one page as the server would send it, minus every check. */
function assemble(verb: 'ListRecords' | 'ListIdentifiers', rows: readonly Row[], more: boolean): string {
  let out = `${HEAD}<request verb="${verb}" metadataPrefix="oai_dc">http://localhost/oai</request><${verb}>`;
  for (const [, identifier, datestamp, isDeleted, sets, xml] of rows) {
    const deleted = isDeleted === true || isDeleted === 1;
    let header = `<header${deleted ? ' status="deleted"' : ''}><identifier>${identifier}</identifier><datestamp>${new Date(Number(datestamp) * 1000).toISOString().slice(0, 19)}Z</datestamp>`;
    if (sets) for (const s of sets.split('\u001f')) header += `<setSpec>${s}</setSpec>`;
    header += '</header>';
    if (verb === 'ListIdentifiers') out += header;
    else out += `<record>${header}${deleted || !xml ? '' : `<metadata>${xml}</metadata>`}</record>`;
  }
  if (more) out += '<resumptionToken cursor="0" completeListSize="0">1.eyJ2IjoiTFIifQ.c2lnbmF0dXJlc2lnbmF0dXJlc2lnbmF0dXJlc2ln</resumptionToken>';
  return `${out}</${verb}></OAI-PMH>`;
}

/** Pages through a list with `fetch` (the driver's page query) until it ends. */
async function scan(verb: 'ListRecords' | 'ListIdentifiers', fetch: (datestamp: number | string, pk: number) => Row[] | Promise<Row[]>): Promise<FloorFigures> {
  const started = process.hrtime.bigint();
  let after: [number | string, number] = [-1, -1];
  let items = 0;
  let pages = 0;
  let bytes = 0;
  for (;;) {
    const rows = await fetch(after[0], after[1]);
    const more = rows.length > PAGE;
    const page = more ? rows.slice(0, PAGE) : rows;
    // The bytes a server would hand the socket: encoding is part of the work.
    bytes += Buffer.from(assemble(verb, page, more), 'utf8').length;
    items += page.length;
    pages++;
    const last = page[page.length - 1];
    if (!more || !last) break;
    after = [last[2], last[0]];
  }
  return { items, pages, seconds: Number(process.hrtime.bigint() - started) / 1e9, bytes };
}

/**
 * Measures the floor of both list verbs on the store at `url`: a SQLite file
 * (`sqlite:PATH`) or a PostgreSQL URL.
 *
 * @example
 * const f = await measureFloor('sqlite:/tmp/bench.sqlite');
 * f.listRecords.items / f.listRecords.seconds // records/s
 */
export async function measureFloor(url: string, sqliteFile: string | undefined): Promise<{ listRecords: FloorFigures; listIdentifiers: FloorFigures }> {
  if (sqliteFile !== undefined) {
    const db = new Database(sqliteFile, { readonly: true });
    try {
      const q = (records: boolean) => db.prepare(pageSql(records, () => '?')).raw(true);
      const lr = q(true);
      const li = q(false);
      return {
        listRecords: await scan('ListRecords', (d, pk) => lr.all(d, pk) as Row[]),
        listIdentifiers: await scan('ListIdentifiers', (d, pk) => li.all(d, pk) as Row[]),
      };
    } finally {
      db.close();
    }
  }
  const { Client } = require('pg') as { Client: new (o: { connectionString: string }) => PgClient };
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    const q = (name: string, records: boolean) => async (d: number | string, pk: number) =>
      (await client.query({ name, text: pageSql(records, (i) => `$${i}`), values: [d, pk], rowMode: 'array' })).rows as Row[];
    return { listRecords: await scan('ListRecords', q('floor_lr', true)), listIdentifiers: await scan('ListIdentifiers', q('floor_li', false)) };
  } finally {
    await client.end();
  }
}
