/**
 * What a source says never reaches a terminal or a log raw: `harvest` and
 * `sources`, run as real processes against a provider that misbehaves on
 * purpose (test/harvest/provider.ts), print no control character but the
 * newline, never a token of megabytes, and a run with 100,000 invalid set
 * descriptions writes a bounded log that counts what it left out; so does a
 * load of a saved ListSets, and a load's refusal lines are shown text too.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { shownJson, shownText } from '../../lib/shown-text';
import { WarningTally } from '../../lib/run-report';
import { MAX_COUNTED_KEYS, MAX_SHOWN_REFUSALS, refusalReport } from '../../server/loader/refusal-report';
import { cli, forEachCliDatabase } from '../loader/helpers';
import { ESCAPES_BODY, startFakeProvider, type FakeProvider, type FakeRecord } from '../harvest/provider';

/** C0 controls but the newline, DEL and C1 controls: what a terminal obeys. */
const CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/;

function records(n: number): FakeRecord[] {
  return Array.from({ length: n }, (_, i) => ({ id: String(i + 1), datestamp: `2024-01-0${i + 1}T00:00:00Z`, title: `Record ${i + 1}` }));
}

describe('text from a source, as it is shown', function () {
  this.timeout(180_000);

  describe('shownText', () => {
    const cases: { name: string; text: string; max?: number; shown: string }[] = [
      { name: 'leaves plain text as it is', text: 'Étalonnage 日本語 😀', shown: 'Étalonnage 日本語 😀' },
      { name: 'writes out ESC and BEL', text: '\x1b[2J\x1b]0;t\x07', shown: '\\x1b[2J\\x1b]0;t\\x07' },
      { name: 'writes out newline, carriage return and tab', text: 'a\nb\rc\td', shown: 'a\\x0ab\\x0dc\\x09d' },
      { name: 'writes out DEL and the C1 CSI', text: '\x7f\u009b31m', shown: '\\x7f\\u009b31m' },
      { name: 'writes out a bidirectional override and a lone surrogate', text: '\u202eab\ud800', shown: '\\u202eab\\ud800' },
      { name: 'cuts long text and says its length', text: 'a'.repeat(8_388_608), max: 5, shown: 'aaaaa…(8,388,608 characters)' },
      { name: 'never cuts inside a surrogate pair', text: 'ab😀cd', max: 3, shown: 'ab…(6 characters)' },
    ];
    for (const c of cases) it(c.name, () => expect(shownText(c.text, c.max)).to.equal(c.shown));

    it('changes nothing when shown twice', () => {
      const once = shownText(ESCAPES_BODY);
      expect(shownText(once)).to.equal(once);
    });

    it('bounds and writes out every string of a JSON value', () => {
      const json = shownJson({ token: 'x'.repeat(100_000), error: '\u009b2J' });
      expect(json.length).to.be.below(2100);
      expect(json).to.not.match(CONTROL);
      expect(JSON.parse(json)).to.have.property('error', '\\u009b2J');
    });
  });

  describe('WarningTally', () => {
    it('shows the first five of a kind and counts the others in one line', () => {
      const t = new WarningTally();
      const shown = Array.from({ length: 12 }, (_, i) => t.shows('dropped', `dropped ${i}`)).filter(Boolean);
      expect(shown).to.have.length(5);
      expect(t.shows('other')).to.equal(true);
      expect(t.more()).to.deep.equal(['dropped: … and 7 more like it (the first: dropped 0)']);
    });
  });

  describe('the refusal report of a load', () => {
    it('counts the records refused for one cause in bounded memory, each record once', () => {
      const lines: string[] = [];
      const report = refusalReport((l) => lines.push(l));
      const n = MAX_COUNTED_KEYS + 500;
      for (let i = 0; i < n; i++) {
        // Each record refused twice in a row for the cause: counted once.
        for (let k = 0; k < 2; k++) report.refuse({ internalId: `r${i}`, field: 'metadata', reason: 'no such format', cause: 'format x\u009b2J' });
      }
      report.finish();
      expect(lines).to.have.length(2);
      expect(lines[1]).to.equal(`refused: ${n - 1} more records for the same reason (format x\\u009b2J), each as above`);
    });

    it('shows a bounded number of refusal lines and counts the rest, saying where every one is', () => {
      const lines: string[] = [];
      const report = refusalReport((l) => lines.push(l), { maxLines: 3, everyOne: 'every one is in r.ndjson' });
      for (let i = 0; i < 10; i++) report.refuse({ internalId: `r${i}`, field: 'title', reason: 'missing' });
      report.finish();
      expect(lines).to.deep.equal([
        'refused: record "r0", field title: missing',
        'refused: record "r1", field title: missing',
        'refused: record "r2", field title: missing',
        'refused: 7 more refusals not shown (every one is in r.ndjson)',
      ]);
    });
  });

  forEachCliDatabase((db) => {
    let fake: FakeProvider | undefined;
    afterEach(async () => {
      await fake?.close();
      fake = undefined;
    });
    const env = { OAI_SEED_DEMO: 'false' };

    it('prints no control character of an error body full of escape sequences, in harvest nor in sources', async () => {
      fake = await startFakeProvider({ granularity: 'second', pageSize: 2 });
      fake.records = records(3);
      expect((await cli(db(), ['migrate'], { env })).code).to.equal(0);
      // The second page is refused, its body a terminal attack; the first is committed.
      fake.faults = [{ when: (q) => q.verb === 'ListRecords' && q.resumptionToken !== undefined, times: 1000, fault: 'escapes' }];
      const harvest = await cli(db(), ['harvest', fake.baseUrl, '--name', 'bad'], { env });
      expect(harvest.code).to.equal(1);
      expect(harvest.stdout).to.include('HTTP 403: denied\\x1b[2J\\x1b]0;pwned\\x07 \\u009b31m red \\x7f\\x08 hidden\\x1b[0m');
      const json = await cli(db(), ['harvest', fake.baseUrl, '--name', 'bad', '--json'], { env });
      const sources = await cli(db(), ['sources'], { env });
      const one = await cli(db(), ['sources', 'bad'], { env });
      const oneJson = await cli(db(), ['sources', 'bad', '--json'], { env });
      expect(sources.stdout).to.include('last error').and.include('\\x1b[2J');
      expect(one.stdout).to.include('\\u009b31m');
      for (const run of [harvest, json, sources, one, oneJson]) {
        expect(run.stdout + run.stderr).to.not.match(CONTROL);
        expect(run.stdout + run.stderr).to.not.include('\x1b');
      }
    });

    it('bounds an 8 MB resumption token in every output, and says its length where it is shown', async () => {
      fake = await startFakeProvider({ granularity: 'second', pageSize: 2 });
      fake.records = records(3);
      // Page 1 is committed with its token of 8,388,608 characters; the source refuses that token on page 2.
      fake.tokenChars = 8 * 1024 * 1024;
      expect((await cli(db(), ['migrate'], { env })).code).to.equal(0);
      const harvest = await cli(db(), ['harvest', fake.baseUrl, '--name', 'bad'], { env });
      expect(harvest.code).to.equal(1);
      expect(harvest.stdout).to.match(/stopped: bad ListRecords oai_dc page 2: .*badArgument/);
      const json = await cli(db(), ['harvest', fake.baseUrl, '--name', 'bad', '--json'], { env });
      for (const run of [harvest, json]) expect(run.stdout.length + run.stderr.length).to.be.below(5000);
      for (const args of [['sources'], ['sources', 'bad'], ['sources', '--json'], ['sources', 'bad', '--json']]) {
        const run = await cli(db(), args, { env });
        expect(run.code, args.join(' ')).to.equal(0);
        expect(run.stdout.length, args.join(' ')).to.be.below(20_000);
        // The checkpoint's token is shown by --json (the lines say only where the list resumes).
        if (args.includes('--json')) expect(run.stdout, args.join(' ')).to.include('…(8,388,608 characters)');
        else expect(run.stdout, args.join(' ')).to.include('interrupted after page 1');
      }
    });

    it('shows the first refusals of a load, bounded, and writes every one to --refusals FILE', async () => {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'source-text-'));
      try {
        const n = MAX_SHOWN_REFUSALS + 25;
        const file = path.join(dir, 'records.ndjson');
        // A setSpec with a space is refused (OAI-PMH 2.0 section 2.7.2); every record here names one.
        fs.writeFileSync(file, Array.from({ length: n }, (_, i) => `${JSON.stringify({ id: `r${i}`, dc: { title: ['T'] }, sets: ['no spaces'] })}\n`).join(''));
        const all = path.join(dir, 'refusals.ndjson');
        const run = await cli(db(), ['load', '--partial', '--refusals', all, file], { env });
        expect(run.code).to.equal(1);
        const refusedLines = run.stderr.split('\n').filter((l) => l.startsWith('refused: '));
        expect(refusedLines).to.have.length(MAX_SHOWN_REFUSALS + 1);
        expect(refusedLines[MAX_SHOWN_REFUSALS]).to.equal(`refused: 25 more refusals not shown (every one is in ${all})`);
        const kept = fs
          .readFileSync(all, 'utf8')
          .trim()
          .split('\n')
          .map((l) => JSON.parse(l) as { internalId: string; field: string });
        expect(kept.map((r) => r.internalId)).to.deep.equal(Array.from({ length: n }, (_, i) => `r${i}`));
        const unwritable = await cli(db(), ['load', '--refusals', path.join(dir, 'no-such-folder', 'r.ndjson'), file], { env });
        expect(unwritable.code).to.equal(2);
        expect(unwritable.stderr).to.match(/^oai-steward load: cannot write the refusals file .*no-such-folder/);
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    });

    it('loads a saved ListSets of 20,000 invalid set descriptions with a bounded log, and shows a refused id with a C1 control escaped', async () => {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'source-text-'));
      try {
        const descriptions = Array.from({ length: 20_000 }, (_, i) => `<setDescription><notdc>free text ${i}</notdc></setDescription>`).join('');
        const file = path.join(dir, 'sets.xml');
        fs.writeFileSync(
          file,
          '<?xml version="1.0" encoding="UTF-8"?><OAI-PMH xmlns="http://www.openarchives.org/OAI/2.0/"><responseDate>2024-01-01T00:00:00Z</responseDate>' +
            `<request verb="ListSets">http://saved.example.org/oai</request><ListSets><set><setSpec>phys</setSpec><setName>Physics</setName>${descriptions}</set></ListSets></OAI-PMH>`,
        );
        expect((await cli(db(), ['migrate'], { env })).code).to.equal(0);
        const sets = await cli(db(), ['load', file], { env });
        expect(sets.code, sets.stderr).to.equal(0);
        const log = sets.stdout + sets.stderr;
        expect(log.length).to.be.below(100_000);
        expect(log.match(/^warning: [^ ]*sets\.xml: set "phys": description \d+ dropped/gm)).to.have.length(5);
        expect(log).to.match(/^warning: .*set descriptions dropped: … and 19995 more like it/m);

        const line = JSON.stringify({ id: 'bad\u009b2J\u202eid', dc: { title: ['T'] }, nonsense: 1 });
        const refused = await cli(db(), ['load', '-'], { input: `${line}\n`, env });
        expect(refused.code).to.equal(1);
        expect(refused.stderr).to.include('\\u009b2J\\u202eid');
        expect(refused.stdout + refused.stderr).to.not.match(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202e]/);
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    });

    it('writes a bounded log for 100,000 invalid set descriptions, and says how many it left out', async () => {
      fake = await startFakeProvider({ granularity: 'second', pageSize: 5 });
      fake.records = records(1);
      fake.sets = [{ spec: 'phys', name: 'Physics', descriptions: Array.from({ length: 100_000 }, (_, i) => `<notdc>free text ${i}</notdc>`) }];
      expect((await cli(db(), ['migrate'], { env })).code).to.equal(0);
      const harvest = await cli(db(), ['harvest', fake.baseUrl, '--name', 'bad'], { env });
      expect(harvest.code).to.equal(0);
      const log = harvest.stdout + harvest.stderr;
      expect(log.length).to.be.below(1024 * 1024);
      expect(log.match(/^warning: bad: ListSets: set "source:bad:phys": description \d+ dropped/gm)).to.have.length(5);
      expect(log).to.match(/^warning: bad: ListSets: set descriptions dropped: … and 99995 more like it/m);
      const one = await cli(db(), ['sources', 'bad'], { env });
      expect(one.stdout).to.include('and 99995 more like it');
    });
  });
});
