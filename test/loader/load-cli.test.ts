/**
 * `oai-steward load`, `delete` and `stats` run as a child process on a
 * throwaway store: idempotency, new datestamps for
 * changed records, atomicity (including a killed load), --partial,
 * --dry-run, --delete-missing, validation messages, and every input kind.
 */
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { createIdPolicy } from '../../lib/ids/policy';
import { DC_NS, OAI_DC_NS } from '../../lib/xml/namespaces';
import { DEMO_NAMESPACE, DEMO_RECORDS, DEMO_SETS, demoSeed } from '../helpers/demo-records';
import { ROOT, cli, datestamps, forEachCliDatabase, snapshot, startCli, summaryOf } from './helpers';

const DC = `xmlns:oai_dc="${OAI_DC_NS}" xmlns:dc="${DC_NS}"`;

function ndjson(records: unknown[]): string {
  return records.map((r) => (typeof r === 'string' ? r : JSON.stringify(r))).join('\n') + '\n';
}

forEachCliDatabase((db) => {
  const loadDemo = async (...extra: string[]) => {
    // The demo repository's own records, with their history: loaded as a migration.
    const run = await cli(db(), ['load', '--json', '--keep-datestamps', '--sets', DEMO_SETS, ...extra, DEMO_RECORDS]);
    expect(run.code, run.stderr).to.equal(0);
    return summaryOf(run);
  };

  it('loads the demo records and counts each outcome', async () => {
    const s = await loadDemo();
    const demo = demoSeed();
    expect(s).to.include({
      records: demo.length,
      inserted: demo.filter((r) => !r.deleted).length,
      deleted: demo.filter((r) => r.deleted).length,
      refused: 0,
      committed: true,
    });
  });

  it('leaves everything unchanged, datestamps included, when the same file is loaded twice', async () => {
    await loadDemo();
    const before = await snapshot(db().knex());
    const s = await loadDemo();
    expect(s).to.include({ unchanged: demoSeed().length, inserted: 0, updated: 0, deleted: 0 });
    expect(await snapshot(db().knex())).to.equal(before);
  });

  it('gives a changed record a new datestamp and leaves the others alone', async () => {
    const file = path.join(db().dir, 'r.ndjson');
    const recs = [1, 2, 3].map((i) => ({ id: `r${i}`, datestamp: '2020-01-01T00:00:00Z', dc: { title: [`Title ${i}`] } }));
    fs.writeFileSync(file, ndjson(recs));
    expect((await cli(db(), ['load', file])).code).to.equal(0);
    const before = await datestamps(db().knex());
    // The export of a catalogue usually has no datestamp: the store's clock stamps what changed.
    fs.writeFileSync(
      file,
      ndjson([
        { id: 'r1', dc: { title: ['Title 1'] } },
        { id: 'r2', dc: { title: ['Title 2, corrected'] } },
        { id: 'r3', dc: { title: ['Title 3'] } },
      ]),
    );
    const startedAt = Math.floor(Date.now() / 1000);
    const s = summaryOf(await cli(db(), ['load', '--json', file]));
    expect(s).to.include({ updated: 1, unchanged: 2 });
    const after = await datestamps(db().knex());
    expect(after.get('r1')).to.equal(before.get('r1'));
    expect(after.get('r3')).to.equal(before.get('r3'));
    expect(after.get('r2')).to.be.at.least(startedAt);
  });

  it('writes nothing when one record is refused, and --partial writes the valid ones', async () => {
    await loadDemo();
    const before = await snapshot(db().knex());
    const file = path.join(db().dir, 'mixed.ndjson');
    fs.writeFileSync(
      file,
      ndjson([
        { id: 'good-1', dc: { title: ['A'] } },
        { id: 'bad-1', sets: ['no such set'], dc: { title: ['B'] } },
        { id: 'good-2', dc: { title: ['C'] } },
      ]),
    );
    const run = await cli(db(), ['load', '--json', file]);
    expect(run.code).to.equal(1);
    expect(summaryOf(run)).to.include({ committed: false, refused: 1 });
    expect(await snapshot(db().knex())).to.equal(before);

    const partial = await cli(db(), ['load', '--json', '--partial', file]);
    expect(partial.code, 'refusals still make the exit status 1').to.equal(1);
    expect(summaryOf(partial)).to.include({ committed: true, inserted: 2, refused: 1 });
    expect(partial.stderr).to.contain(`${file}:2: record "bad-1", field sets`);
    const ids = ((await db().knex()('items').select('internal_id').whereIn('internal_id', ['good-1', 'good-2', 'bad-1'])) as { internal_id: string }[]).map(
      (r) => r.internal_id,
    );
    expect(ids.sort()).to.deep.equal(['good-1', 'good-2']);
  });

  it('names the file, the line, the record, the field and the reason of every refusal', async () => {
    const file = path.join(db().dir, 'bad.ndjson');
    fs.writeFileSync(
      file,
      ndjson([
        { id: 'ok', dc: { title: ['fine'] } },
        '{"id": "broken", ',
        { dc: { title: ['no id'] } },
        { id: 'bell', dc: { title: ['ring \u0007 ring'] } },
        { id: 'not-xml', metadata: { oai_dc: '<oai_dc:dc><dc:title>x</oai_dc:dc>' } },
        { id: 'not-dc', metadata: { oai_dc: `<oai_dc:dc ${DC}><dc:colour>red</dc:colour></oai_dc:dc>` } },
        { id: 'ok', dc: { title: ['again'] } },
        { id: 'bad-ns', dc: { identifier: ['oai:DEMO.oai-steward.org:x'] } },
        { id: 'undated', datestamp: '2024-13-01', dc: { title: ['t'] } },
        { id: 'bad-id-in-xml', metadata: { oai_dc: `<oai_dc:dc ${DC}><dc:identifier>oai:wibble.org:ab%3ccd</dc:identifier></oai_dc:dc>` } },
      ]),
    );
    const run = await cli(db(), ['load', file]);
    expect(run.code).to.equal(1);
    const lines = run.stderr.split('\n').filter((l) => l.startsWith('refused: '));
    const expectLine = (line: number, record: string | null, field: string, reason: RegExp): void => {
      const prefix = `refused: ${file}:${line}: ${record === null ? '' : `record ${JSON.stringify(record)}, `}field ${field}: `;
      const hit = lines.find((l) => l.startsWith(prefix));
      expect(hit, `${prefix} in\n${lines.join('\n')}`).to.be.a('string');
      expect(hit).to.match(reason);
    };
    expectLine(2, null, 'record', /not valid JSON/);
    expectLine(3, null, 'id', /required/);
    expectLine(4, 'bell', 'dc.title', /U\+0007 at offset 5/);
    expectLine(5, 'not-xml', 'metadata.oai_dc', /not well-formed/);
    expectLine(6, 'not-dc', 'metadata.oai_dc', /oai_dc\.xsd.*colour/);
    expectLine(7, 'ok', 'id', /appears earlier/);
    expectLine(8, 'bad-ns', 'identifiers[0]', /capitalization/);
    expectLine(9, 'undated', 'datestamp', /YYYY-MM-DDThh:mm:ssZ/);
    // Identifier fields inside metadata given as XML are checked like `dc` fields.
    expectLine(10, 'bad-id-in-xml', 'identifiers[0]', /oai-identifier.*%3C/);
    expect(run.stdout).to.contain('nothing was written');
    expect(Number(((await db().knex()('items').count({ n: '*' }).first()) as { n: unknown }).n)).to.equal(0);
  });

  it('reports what a --dry-run would do and writes nothing', async () => {
    const run = await cli(db(), ['load', '--json', '--dry-run', '--sets', DEMO_SETS, DEMO_RECORDS]);
    expect(run.code).to.equal(0);
    expect(summaryOf(run)).to.include({ dryRun: true, committed: false, inserted: demoSeed().filter((r) => !r.deleted).length });
    const stats = JSON.parse((await cli(db(), ['stats', '--json'])).stdout) as { items: number; sets: object };
    expect(stats.items).to.equal(0);
    expect(Object.keys(stats.sets)).to.have.length(0);
  });

  it('turns items absent from a full export into tombstones with --delete-missing', async () => {
    await loadDemo();
    const demo = demoSeed();
    const kept = demo.slice(0, 100);
    const file = path.join(db().dir, 'subset.ndjson');
    fs.writeFileSync(file, ndjson(kept));
    const s = summaryOf(await cli(db(), ['load', '--json', '--delete-missing', file]));
    const missingLive = demo.slice(100).filter((r) => !r.deleted).length;
    expect(s).to.include({ unchanged: 100, deleted: missingLive, committed: true });
    const stats = JSON.parse((await cli(db(), ['stats', '--json'])).stdout) as { items: number; deleted: number };
    expect(stats).to.include({ items: demo.length, deleted: demo.filter((r) => r.deleted).length + missingLive });
  });

  it('refuses an id repeated in a later batch, and --delete-missing spares the items of refused records', async () => {
    const file = path.join(db().dir, 'r.ndjson');
    fs.writeFileSync(file, ndjson(['gone', 'kept', 'a', 'b'].map((id) => ({ id, dc: { title: [id] } }))));
    expect((await cli(db(), ['load', file])).code).to.equal(0);
    // Two records a batch: the second "a" (line 4) comes two batches after the first.
    fs.writeFileSync(
      file,
      ndjson([
        { id: 'a', dc: { title: ['a'] } },
        { id: 'b', dc: { title: ['b'] } },
        { id: 'c', dc: { title: ['c'] } },
        { id: 'a', dc: { title: ['a twice'] } },
        { id: 'kept', dc: { title: ['kept'] }, colour: 'red' },
      ]),
    );
    const run = await cli(db(), ['load', '--json', '--partial', '--delete-missing', '--batch-size', '2', file]);
    expect(run.code).to.equal(1);
    const refused = run.stderr.split('\n').filter((l) => l.startsWith('refused: '));
    expect(refused[0]).to.match(
      new RegExp(`^refused: ${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:4: record "a", field id: the same internal id appears earlier in this load$`),
    );
    expect(refused[1]).to.contain(`${file}:5: record "kept"`);
    expect(refused).to.have.length(2);
    expect(summaryOf(run)).to.include({ records: 5, inserted: 1, unchanged: 2, deleted: 1, refused: 2, committed: true });
    const rows = (await db().knex()('items').select('internal_id', 'deleted').orderBy('internal_id')) as { internal_id: string; deleted: unknown }[];
    expect(rows.map((r) => `${r.internal_id}:${Boolean(Number(r.deleted))}`)).to.deep.equal(['a:false', 'b:false', 'c:false', 'gone:true', 'kept:false']);
  });

  it('deletes single items by internal id or oai-identifier, and refuses unknown ones without deleting anything', async () => {
    await loadDemo();
    const live = demoSeed().filter((r) => !r.deleted);
    const a = live[0]?.id as string;
    const ok = await cli(db(), ['delete', a]);
    expect(ok.code, ok.stderr).to.equal(0);
    expect(ok.stdout).to.contain(`deleted: ${JSON.stringify(a)}`);
    const byId = await cli(db(), ['delete', '--identifier', createIdPolicy({ namespace: DEMO_NAMESPACE }).map('Tom & Jerry').identifier]);
    expect(byId.code, byId.stderr).to.equal(0);
    const before = await snapshot(db().knex());
    const refused = await cli(db(), ['delete', live[1]?.id as string, 'no such item']);
    expect(refused.code).to.equal(1);
    expect(refused.stderr).to.match(/record "no such item", field id: no item/);
    expect(await snapshot(db().knex())).to.equal(before);
    const rows = (await db()
      .knex()('items')
      .select('internal_id', 'deleted')
      .whereIn('internal_id', [a, 'Tom & Jerry', live[1]?.id as string])) as { internal_id: string; deleted: unknown }[];
    expect(Object.fromEntries(rows.map((r) => [r.internal_id, Boolean(Number(r.deleted) || r.deleted === true)]))).to.deep.equal({
      [a]: true,
      'Tom & Jerry': true,
      [live[1]?.id as string]: false,
    });
  });

  it('shows items, deleted items, sets, formats and the datestamp range in stats', async () => {
    await loadDemo();
    const demo = demoSeed();
    const run = await cli(db(), ['stats', '--json']);
    expect(run.code).to.equal(0);
    const s = JSON.parse(run.stdout) as {
      items: number;
      deleted: number;
      live: number;
      sets: Record<string, { items: number }>;
      formats: Record<string, { items: number }>;
      earliestDatestamp: string;
      latestDatestamp: string;
    };
    const stamps = demo.map((r) => r.datestamp).sort();
    expect(s).to.include({
      items: demo.length,
      deleted: demo.filter((r) => r.deleted).length,
      earliestDatestamp: stamps[0],
      latestDatestamp: stamps[stamps.length - 1],
    });
    expect(s.formats.oai_dc?.items).to.equal(demo.length);
    // A set counts the items of its sub-sets (OAI-PMH 2.7.2).
    const inHep = demo.filter((r) => (r.sets ?? []).some((x) => x === 'physics:hep' || x.startsWith('physics:hep:'))).length;
    expect(s.sets['physics:hep']?.items).to.equal(inHep);
    const text = await cli(db(), ['stats']);
    expect(text.stdout).to.match(new RegExp(`items\\s+${demo.length} `));
    expect(text.stdout).to.contain('physics:hep:theory');
  });

  it('reads standard input and a JSON array as well as NDJSON', async () => {
    const recs = [
      { id: 'a', dc: { title: ['A'] } },
      { id: 'b', dc: { title: ['B, with ] and } and "quotes"'] } },
    ];
    const stdin = summaryOf(await cli(db(), ['load', '--json', '-'], { input: ndjson(recs) }));
    expect(stdin).to.include({ inserted: 2 });
    const file = path.join(db().dir, 'recs.json');
    fs.writeFileSync(file, JSON.stringify([...recs, { id: 'c', dc: { title: ['C'] } }], null, 2));
    expect(summaryOf(await cli(db(), ['load', '--json', file]))).to.include({ unchanged: 2, inserted: 1 });
    const arrayStdin = summaryOf(await cli(db(), ['load', '--json', '-'], { input: fs.readFileSync(file, 'utf8') }));
    expect(arrayStdin).to.include({ unchanged: 3 });
  });

  it('loads a saved GetRecord response of another repository under its oai-identifier', async () => {
    const sets = path.join(db().dir, 'sets.json');
    fs.writeFileSync(
      sets,
      JSON.stringify([
        { spec: 'cs', name: 'Computer Science' },
        { spec: 'math', name: 'Mathematics' },
      ]),
    );
    const file = path.join(ROOT, 'test', 'fixtures', 'spec-examples', 'ex-sec4.1a.xml');
    const first = await cli(db(), ['load', '--json', '--sets', sets, file]);
    expect(first.code, first.stderr).to.equal(0);
    expect(summaryOf(first)).to.include({ inserted: 1 });
    const row = (await db().knex()('items').select('internal_id', 'identifier', 'datestamp').first()) as {
      internal_id: string;
      identifier: string;
      datestamp: unknown;
    };
    expect(row.internal_id).to.equal('oai:arXiv.org:cs/0112017');
    expect(row.identifier).to.equal('oai:demo.oai-steward.org:oai:arXiv.org:cs/0112017');
    // Published with the time it was loaded: 2001-12-14 is arXiv's datestamp, not this repository's.
    expect(Number(row.datestamp)).to.be.greaterThan(Date.UTC(2026, 0, 1) / 1000);
    expect(summaryOf(await cli(db(), ['load', '--json', '--sets', sets, file]))).to.include({ unchanged: 1 });
  });

  it('loads a folder of oai_dc files, the internal id from each file name', async () => {
    const folder = path.join(db().dir, 'dc');
    fs.mkdirSync(folder);
    fs.writeFileSync(path.join(folder, 'report%2012.xml'), `<?xml version="1.0"?>\n<oai_dc:dc ${DC}>\n  <dc:title>Report twelve</dc:title>\n</oai_dc:dc>\n`);
    fs.writeFileSync(path.join(folder, 'plain.xml'), `<oai_dc:dc ${DC}><dc:title>Plain</dc:title></oai_dc:dc>`);
    fs.writeFileSync(path.join(folder, 'broken.xml'), `<oai_dc:dc ${DC}>\n<dc:title>Broken</dc:title>\n`);
    fs.writeFileSync(path.join(folder, 'ignored.txt'), 'not xml');
    const run = await cli(db(), ['load', '--json', '--partial', folder]);
    expect(summaryOf(run)).to.include({ inserted: 2, refused: 1 });
    expect(run.stderr).to.match(new RegExp(`${path.join(folder, 'broken.xml')}:\\d+: field xml: not well-formed`));
    const ids = ((await db().knex()('items').select('internal_id').orderBy('internal_id')) as { internal_id: string }[]).map((r) => r.internal_id);
    expect(ids).to.deep.equal(['plain', 'report 12']);
    expect(summaryOf(await cli(db(), ['load', '--json', '--partial', folder]))).to.include({ unchanged: 2 });
  });

  it('exits 2 on a usage error', async () => {
    expect((await cli(db(), ['load'])).code).to.equal(2);
    expect((await cli(db(), ['load', '--no-such-option', DEMO_RECORDS])).code).to.equal(2);
    expect((await cli(db(), ['load', path.join(db().dir, 'missing.ndjson')])).code).to.equal(2);
    expect((await cli(db(), ['stats', '--xml'])).code).to.equal(2);
  });

  it('leaves the store as it was when a load is killed half-way, and a rerun completes it', async () => {
    await loadDemo();
    const before = await snapshot(db().knex());
    const file = path.join(db().dir, 'big.ndjson');
    const n = 20000;
    const out = fs.openSync(file, 'w');
    for (let i = 0; i < n; i++)
      fs.writeSync(out, `${JSON.stringify({ id: `big-${i}`, datestamp: '2020-01-01T00:00:00Z', dc: { title: [`Record ${i}`], creator: ['Doe, Jane'] } })}\n`);
    fs.closeSync(out);
    const { child, done } = startCli(db(), ['load', '--batch-size', '200', '--progress-interval', '0', file]);
    // Wait until batches have been written inside the transaction, then kill.
    await new Promise<void>((resolve, reject) => {
      let seen = '';
      child.stderr?.on('data', (d: Buffer) => {
        seen += d.toString();
        const m = /load: .*?(\d+) records/g;
        let last = 0;
        for (let x = m.exec(seen); x; x = m.exec(seen)) last = Number(x[1]);
        if (last >= 2000) resolve();
      });
      child.on('close', () => reject(new Error(`the load ended before it could be killed:\n${seen}`)));
    });
    child.kill('SIGKILL');
    const killed = await done;
    expect(killed.signal).to.equal('SIGKILL');
    expect(await snapshot(db().knex())).to.equal(before);
    const rerun = await cli(db(), ['load', '--json', file]);
    expect(rerun.code, rerun.stderr).to.equal(0);
    expect(summaryOf(rerun)).to.include({ inserted: n, committed: true });
  });
});
