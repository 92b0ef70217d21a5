/**
 * Following a repository with dumps, and what a dump sees: a delta
 * (`--since`) holds exactly the records stamped at or after its date,
 * deletions included, and a mirror that loads the full dump and then the
 * delta gives every answer the repository gives (the delta's records
 * stamped with the mirror's time); a write that commits while
 * a dump is being written appears in none of its files (the snapshot), and
 * in the next dump whole.
 */
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { handleRequest } from '../../lib/oai';
import { renderResponse } from '../../lib/oai/render';
import { formatDatestamp } from '../../lib/oai/dates';
import { openThrowawayDatabase } from '../helpers/db';
import { cli, forEachCliDatabase } from '../loader/helpers';
import { writeDump } from '../../server/dump/write';
import { everyAnswer, fillSource, gunzipFile, openOn, PREFIXES, readManifest, repositoryEnv } from './helpers';

/**
 * Answers with every header datestamp and responseDate taken out, a list's
 * pages joined and its records (or headers) sorted: what two stores that
 * differ only in datestamps answer alike.
 */
function answersWithoutDatestamps(answers: Map<string, string>): Map<string, string> {
  const out = new Map<string, string[]>();
  for (const [key, xml] of answers) {
    const request = key.slice(0, key.lastIndexOf('#'));
    const plain = xml
      .replace(/<responseDate>[^<]*<\/responseDate>/, '')
      .replace(/(<header(?: status="deleted")?><identifier>[^<]*<\/identifier>)<datestamp>[^<]*<\/datestamp>/g, '$1');
    const parts = /verb=List(Records|Identifiers)/.test(request) ? (plain.match(/<record>[\s\S]*?<\/record>|<header[ >][\s\S]*?<\/header>/g) ?? []) : [plain];
    out.set(request, [...(out.get(request) ?? []), ...parts]);
  }
  return new Map([...out].map(([k, v]) => [k, v.sort().join('\n')]));
}

/** The item lines of a dump's JSON lines file. */
function itemLines(
  dir: string,
): { id: string; header: { identifier: string; datestamp: string; deleted: boolean; sets: string[] }; metadata?: Record<string, string> }[] {
  const m = readManifest(dir);
  return gunzipFile(dir, m.files.find((f) => f.kind === 'records')?.name ?? '')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as ReturnType<typeof itemLines>[number] & { set?: unknown })
    .filter((l) => l.set === undefined);
}

forEachCliDatabase((db) => {
  it('writes a delta of the records stamped since a date, deletions included, which brings a mirror of the full dump up to date', async function () {
    this.timeout(300_000);
    const env = repositoryEnv(db().dir);
    await fillSource(db(), env);
    // Datestamps have a granularity of seconds and `--since` is inclusive (as OAI-PMH's `from`): the full
    // dump begins in a later second than the source's last write, so the delta holds only what follows it.
    await new Promise((resolve) => setTimeout(resolve, 1000 - (Date.now() % 1000) + 50));
    const full = path.join(db().dir, 'full');
    expect((await cli(db(), ['dump', full], { env })).code).to.equal(0);
    const since = readManifest(full).snapshot;

    // Changes after the full dump: an update, a new record, a deletion, a record moved to another set.
    const changes = path.join(db().dir, 'changes.ndjson');
    fs.writeFileSync(
      changes,
      [
        { id: 'thesis 1', sets: ['theses'], dc: { title: ['On lattices, revised'] } },
        { id: 'new one', sets: ['math'], dc: { title: ['New'] } },
        { id: 'data-2024-0001', sets: ['physics'], dc: { title: ['Moved'] } },
      ]
        .map((r) => JSON.stringify(r))
        .join('\n') + '\n',
    );
    const changed = await cli(db(), ['load', changes], { env });
    expect(changed.code, changed.stderr).to.equal(0);
    expect((await cli(db(), ['delete', 'rep-2024-0003'], { env })).code).to.equal(0);

    const delta = path.join(db().dir, 'delta');
    const run = await cli(db(), ['dump', delta, '--since', since], { env });
    expect(run.code, run.stderr).to.equal(0);
    const manifest = readManifest(delta);
    expect(manifest.since).to.equal(since);
    const lines = itemLines(delta);
    expect(lines.map((l) => l.id).sort()).to.deep.equal(['data-2024-0001', 'new one', 'rep-2024-0003', 'thesis 1']);
    expect(lines.find((l) => l.id === 'rep-2024-0003')?.header.deleted).to.equal(true);
    expect(manifest.items).to.equal(4);
    expect(manifest.deleted).to.equal(1);

    const source = await openOn(db(), env);
    const mirror = await openThrowawayDatabase(db().name);
    try {
      // The delta's per-format files hold what a harvest `from` the date answers, record for record.
      const ctx = await source.context();
      for (const f of manifest.files.filter((x) => x.kind === 'ListRecords')) {
        const res = await handleRequest(
          ctx,
          [
            ['verb', 'ListRecords'],
            ['metadataPrefix', f.metadataPrefix ?? ''],
            ['from', since],
          ],
          Math.floor(Date.now() / 1000) + 60,
        );
        const records = (renderResponse(res).match(/<record>[\s\S]*?<\/record>\n/g) ?? []).join('');
        const dumped = gunzipFile(delta, f.name);
        expect(dumped.slice(dumped.indexOf('<record>'), dumped.lastIndexOf('</record>\n') + 10), f.name).to.equal(records);
        expect(dumped).to.include(`from="${since}"`);
      }
      // The mirror: the full dump as a migration (new to the mirror, its records keep their datestamps),
      // then the delta, whose records the mirror holds already: a change to it, stamped with its own time.
      const recordsFile = (dir: string): string => path.join(dir, readManifest(dir).files.find((f) => f.kind === 'records')?.name ?? '');
      const first = await cli(mirror, ['load', '--keep-datestamps', recordsFile(full)], { env });
      expect(first.code, first.stderr).to.equal(0);
      const deltaLoaded = Math.floor(Date.now() / 1000);
      const second = await cli(mirror, ['load', '--keep-datestamps', recordsFile(delta)], { env });
      expect(second.code, second.stderr).to.equal(0);
      const copy = await openOn(mirror, env);
      try {
        const now = 1_800_000_000;
        const original = await everyAnswer(ctx, now);
        const mirrored = await everyAnswer(await copy.context(), now);
        // Every record is the same but for the datestamps of the delta's (lists are ordered by datestamp,
        // so a list is compared as the records it holds over all its pages).
        expect(answersWithoutDatestamps(mirrored)).to.deep.equal(answersWithoutDatestamps(original));
        // The delta's records the full dump held already were changed in the mirror; a new one is new to it too.
        const inFull = new Set(itemLines(full).map((l) => l.header.identifier));
        const changed = new Set(lines.map((l) => l.header.identifier).filter((i) => inFull.has(i)));
        const stampsOf = (answers: Map<string, string>): Map<string, string> =>
          new Map(
            [...answers]
              .filter(([k]) => k.startsWith('verb=GetRecord&metadataPrefix=oai_dc&'))
              .map(([, xml]) => [/<identifier>([^<]*)</.exec(xml)?.[1] ?? '', /<datestamp>([^<]*)</.exec(xml)?.[1] ?? '']),
          );
        const theirs = stampsOf(original);
        for (const [identifier, stamp] of stampsOf(mirrored)) {
          if (changed.has(identifier.replace(/&amp;/g, '&'))) expect(Date.parse(stamp) / 1000, identifier).to.be.at.least(deltaLoaded);
          else expect(stamp, identifier).to.equal(theirs.get(identifier));
        }
      } finally {
        await copy.close();
      }
    } finally {
      await source.close();
      await mirror.close();
    }
  });

  it('shows the store as it was when the dump began: a write committed during the dump appears in none of its files', async function () {
    this.timeout(300_000);
    const env = repositoryEnv(db().dir);
    await fillSource(db(), env);
    const reader = await openOn(db(), env);
    const writer = await openOn(db(), env);
    try {
      const before = await reader.store.stats();
      const out = path.join(db().dir, 'dump');
      let wrote = false;
      const manifest = await writeDump(reader.store, {
        dir: out,
        baseURL: 'http://repo.example.org/oai',
        prefixes: [...PREFIXES],
        now: () => Math.floor(Date.now() / 1000),
        pageSize: 20,
        // After the first page: one batch (an update of the first item and of the last, a new item) commits.
        onPage: async () => {
          if (wrote) return;
          wrote = true;
          await writer.store.writeItems([
            { internalId: 'data-2024-0001', sets: ['math'], metadata: {}, fields: { dc: { title: ['Changed during the dump'] } } },
            { internalId: 'thesis 1', sets: ['theses'], metadata: {}, fields: { dc: { title: ['Also changed during the dump'] } } },
            { internalId: 'during', sets: [], metadata: {}, fields: { dc: { title: ['Written during the dump'] } } },
          ]);
        },
      });
      expect(wrote).to.equal(true);
      // The write committed: the store holds it.
      expect((await reader.store.stats()).items).to.equal(before.items + 1);
      // The dump does not.
      expect(manifest.items).to.equal(before.items);
      expect(manifest.datestamps.latest).to.equal(before.latestDatestamp);
      for (const f of manifest.files) {
        const text = gunzipFile(out, f.name);
        expect(text, f.name).to.not.include('during the dump');
        expect(text, f.name).to.not.include(':during<');
      }
      const lines = itemLines(out);
      expect(lines.map((l) => l.id)).to.not.include('during');
      expect(lines.find((l) => l.id === 'thesis 1')?.metadata?.oai_dc).to.include('On lattices');
      // The next dump has the whole write.
      const next = path.join(db().dir, 'next');
      await writeDump(reader.store, { dir: next, baseURL: 'http://repo.example.org/oai', prefixes: ['oai_dc'], now: () => Math.floor(Date.now() / 1000) });
      const after = itemLines(next);
      expect(after.map((l) => l.id)).to.include('during');
      expect(after.find((l) => l.id === 'thesis 1')?.metadata?.oai_dc).to.include('Also changed during the dump');
      expect(after.find((l) => l.id === 'data-2024-0001')?.metadata?.oai_dc).to.include('Changed during the dump');
      expect(readManifest(next).datestamps.latest).to.not.equal(null);
      expect(readManifest(next).datestamps.latest).to.not.equal(formatDatestamp(0));
    } finally {
      await reader.close();
      await writer.close();
    }
  });
});
