/**
 * A bulk dump as a repository manager and a mirror use it, through the CLI
 * (`oai-steward dump`, `oai-steward load`) on every database: the JSON
 * lines of a dump load into a fresh store that then gives every answer
 * byte for byte as the original (every verb, format, set, identifier and
 * page, with datestamps, tombstones, sets, foreign XML and provenance); the
 * manifest's sizes and SHA-256s are those of the files; every per-format
 * file is one complete ListRecords response, valid against OAI-PMH.xsd and
 * its format's schema; a load of a line that breaks a rule is refused.
 */
import { spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { expect } from 'chai';
import { xsdErrors, xsdErrorsDeclared, type FormatPrefix } from '../helpers/xsd';
import { openThrowawayDatabase } from '../helpers/db';
import { cli, forEachCliDatabase, summaryOf } from '../loader/helpers';
import { everyAnswer, fillSource, gunzipFile, openOn, PREFIXES, readManifest, repositoryEnv, RETIRED_SET, thesis, THESIS_NS, THESIS_XSD } from './helpers';

forEachCliDatabase((db) => {
  it('loads back into a fresh store that gives every answer byte for byte as the original', async function () {
    this.timeout(240_000);
    const env = repositoryEnv(db().dir);
    await fillSource(db(), env);
    // One format of one record changes a second later than the others: its records' datestamps differ,
    // and the dump keeps each (a line's `datestamps`).
    const filled = Math.floor(Date.now() / 1000);
    while (Math.floor(Date.now() / 1000) <= filled) await new Promise((r) => setTimeout(r, 50));
    const mods = '<mods xmlns="http://www.loc.gov/mods/v3" version="3.7"><titleInfo><title>On lattices, as catalogued</title></titleInfo></mods>';
    const oneFormat = path.join(db().dir, 'one-format.ndjson');
    fs.writeFileSync(
      oneFormat,
      `${JSON.stringify({ id: 'thesis 1', sets: ['math'], dc: { title: ['On lattices'] }, metadata: { thesis_rec: thesis('On lattices'), mods } })}\n`,
    );
    expect((await cli(db(), ['load', oneFormat], { env })).code).to.equal(0);
    const stamps = (await db()
      .knex()('records as r')
      .join('items as i', 'i.pk', 'r.item_pk')
      .where('i.internal_id', 'thesis 1')
      .select('r.prefix', 'r.datestamp')) as { prefix: string; datestamp: unknown }[];
    const modsAt = Number(stamps.find((s) => s.prefix === 'mods')?.datestamp);
    expect(
      stamps.filter((s) => s.prefix !== 'mods').every((s) => Number(s.datestamp) < modsAt),
      JSON.stringify(stamps),
    ).to.equal(true);
    const out = path.join(db().dir, 'dump');
    const dump = await cli(db(), ['dump', out], { env });
    expect(dump.code, dump.stderr).to.equal(0);
    const manifest = readManifest(out);
    const jsonl = manifest.files.find((f) => f.kind === 'records');
    expect(jsonl).to.not.equal(undefined);

    const fresh = await openThrowawayDatabase(db().name);
    try {
      // A dump is this repository's own export: loaded as a migration, it keeps its datestamps.
      const load = await cli(fresh, ['load', '--json', '--keep-datestamps', path.join(out, jsonl?.name ?? '')], { env });
      expect(load.code, load.stderr).to.equal(0);
      const summary = summaryOf(load);
      expect(summary.refused).to.equal(0);
      expect(summary.inserted + summary.deleted).to.equal(manifest.items);
      expect(summary.deleted).to.equal(manifest.deleted);

      const [a, b] = [await openOn(db(), env), await openOn(fresh, env)];
      try {
        const now = 1_800_000_000;
        const original = await everyAnswer(await a.context(), now);
        const copy = await everyAnswer(await b.context(), now);
        expect([...copy.keys()]).to.deep.equal([...original.keys()]);
        for (const [request, xml] of original) expect(copy.get(request), request).to.equal(xml);
        // What the comparison covered: tombstones, foreign XML, provenance, a lifted model.
        const all = [...original.values()].join('\n');
        expect(all).to.include('<header status="deleted">');
        expect(all).to.include(`<thesisRecord xmlns="${THESIS_NS}"`);
        expect(all).to.include('<provenance');
        expect(all).to.include(':lifted%201</identifier>');
        expect(all).to.include(':lifted%202</identifier>');
        // Set departures: the moved record and the retired set's former members, reported deleted there.
        const theses = [...original]
          .filter(([k]) => k.startsWith('verb=ListRecords&metadataPrefix=oai_dc&set=theses#'))
          .map(([, v]) => v)
          .join('');
        expect(theses).to.match(/<header status="deleted"><identifier>oai:demo\.oai-steward\.org:thesis%201<\/identifier>/);
        const history = [...original]
          .filter(([k]) => k.startsWith(`verb=ListRecords&metadataPrefix=oai_dc&set=${RETIRED_SET}#`))
          .map(([, v]) => v)
          .join('');
        expect(history).to.include('<header status="deleted">');
        expect(history).to.not.include('<metadata>');
      } finally {
        await a.close();
        await b.close();
      }
    } finally {
      await fresh.close();
    }
  });

  it("writes a manifest whose sizes and SHA-256s are the files', and per format one ListRecords response valid against the schemas", async function () {
    this.timeout(240_000);
    const env = repositoryEnv(db().dir);
    await fillSource(db(), env);
    const out = path.join(db().dir, 'dump');
    const dump = await cli(db(), ['dump', out], { env });
    expect(dump.code, dump.stderr).to.equal(0);
    const manifest = readManifest(out);
    // Every file named, nothing else but the manifest, no temporary file left.
    expect(fs.readdirSync(out).sort()).to.deep.equal([...manifest.files.map((f) => f.name), 'manifest.json'].sort());
    expect(manifest.files.filter((f) => f.kind === 'ListRecords').map((f) => f.metadataPrefix)).to.deep.equal([...PREFIXES]);
    for (const f of manifest.files) {
      const bytes = fs.readFileSync(path.join(out, f.name));
      expect(bytes.length, f.name).to.equal(f.bytes);
      expect(crypto.createHash('sha256').update(bytes).digest('hex'), f.name).to.equal(f.sha256);
    }
    const p = await openOn(db(), env);
    try {
      const stats = await p.store.stats();
      expect(manifest.items).to.equal(stats.items);
      expect(manifest.deleted).to.equal(stats.deleted);
      expect(manifest.datestamps).to.deep.equal({ earliest: stats.earliestDatestamp, latest: stats.latestDatestamp });
      expect(manifest.since).to.equal(null);
      for (const f of manifest.files.filter((x) => x.kind === 'ListRecords')) {
        const xml = gunzipFile(out, f.name);
        const errors = f.metadataPrefix === 'thesis_rec' ? xsdErrorsDeclared(xml, THESIS_NS, THESIS_XSD) : xsdErrors(xml, f.metadataPrefix as FormatPrefix);
        expect(errors, f.name).to.deep.equal([]);
        expect(xml).to.not.include('<resumptionToken');
        expect(xml).to.include(`<request verb="ListRecords" metadataPrefix="${f.metadataPrefix ?? ''}">http://repo.example.org/oai</request>`);
        expect(xml).to.include(`<responseDate>${manifest.snapshot}</responseDate>`);
        const counted = stats.formats[f.metadataPrefix ?? ''];
        expect([...xml.matchAll(/<record>/g)].length, f.name).to.equal(counted?.items);
        expect(f.records).to.equal(counted?.items);
        expect([...xml.matchAll(/<header status="deleted">/g)].length, f.name).to.equal(f.deleted);
      }
    } finally {
      await p.close();
    }
    const lines = gunzipFile(out, manifest.files.find((f) => f.kind === 'records')?.name ?? '')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines.filter((l) => 'set' in l)).to.have.length(manifest.sets);
    expect(lines.filter((l) => 'header' in l)).to.have.length(manifest.items);
    // Where each model came from: given by the record, or lifted from the XML it gave.
    const from = new Map(lines.filter((l) => 'header' in l).map((l) => [l.id, l.modelFrom]));
    expect(from.get('lifted 1')).to.equal('http://datacite.org/schema/kernel-3');
    expect(from.get('lifted 2')).to.equal('datacite');
    expect(from.get('thesis 1')).to.equal('record');
    expect(from.get('gone soon')).to.equal(undefined);
  });

  it('replaces the previous dump in the folder, removing its files once the new manifest is in place, and the temporary files of dumps that were killed', async function () {
    this.timeout(240_000);
    const env = repositoryEnv(db().dir);
    await fillSource(db(), env);
    const out = path.join(db().dir, 'dump');
    // A file of an earlier dump, named by the manifest in place.
    fs.mkdirSync(out);
    fs.writeFileSync(path.join(out, 'records-20000101T000000Z.jsonl.gz'), zlib.gzipSync('{}\n'));
    fs.writeFileSync(path.join(out, 'manifest.json'), JSON.stringify({ files: [{ name: 'records-20000101T000000Z.jsonl.gz' }, { name: '../outside.txt' }] }));
    fs.writeFileSync(path.join(db().dir, 'outside.txt'), "not the dump's");
    // A temporary file of a dump whose process is gone, and one of a dump still running (this process).
    const gone = spawnSync(process.execPath, ['-e', '']).pid;
    fs.writeFileSync(path.join(out, `.records-x.jsonl.gz.${gone}.partial`), 'abandoned');
    fs.writeFileSync(path.join(out, `.records-y.jsonl.gz.${process.pid}.partial`), 'being written');
    const dump = await cli(db(), ['dump', out, '--prefix', 'oai_dc', '--json'], { env });
    expect(dump.code, dump.stderr).to.equal(0);
    const manifest = JSON.parse(dump.stdout) as { files: { name: string }[] };
    expect(fs.readdirSync(out).sort()).to.deep.equal(
      [...manifest.files.map((f) => f.name), 'manifest.json', `.records-y.jsonl.gz.${process.pid}.partial`].sort(),
    );
    expect(manifest.files.map((f) => f.name)).to.have.length(2);
    expect(fs.existsSync(path.join(db().dir, 'outside.txt'))).to.equal(true);
  });

  it('refuses a line whose identifier this repository would not publish, naming the file, line and field, and writes nothing', async function () {
    this.timeout(120_000);
    const env = repositoryEnv(db().dir);
    const file = path.join(db().dir, 'bad.jsonl.gz');
    const line = {
      id: 'x 1',
      header: { identifier: 'oai:elsewhere.example.org:x%201', datestamp: '2025-01-01T00:00:00Z', deleted: false, sets: [] },
      model: { dc: { title: ['T'] } },
      modelFrom: 'record',
      given: [],
      metadata: {},
    };
    fs.writeFileSync(
      file,
      zlib.gzipSync(
        `${JSON.stringify({ ...line, id: 'x 0', header: { ...line.header, identifier: 'oai:demo.oai-steward.org:x%200' } })}\n${JSON.stringify(line)}\n`,
      ),
    );
    const run = await cli(db(), ['load', file], { env });
    expect(run.code).to.equal(1);
    expect(run.stderr).to.match(/bad\.jsonl\.gz:2: record "x 1", field header\.identifier: .*id policy/);
    expect(Number((await db().knex()('items').count({ n: '*' }).first())?.n)).to.equal(0);
  });
});
