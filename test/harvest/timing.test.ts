/**
 * The harvester's pure parts: the incremental `from`, Retry-After, the
 * backoff, schedules, the `sources` section of the configuration, and the
 * mark of characters XML 1.0 cannot carry.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { backoffMs, granularityOf, harvestedUpTo, inGranularity, incrementalFrom, retryAfterMs } from '../../lib/harvest/timing';
import { nextCheckMs, nextRun, parseSchedule, parseSources } from '../../lib/harvest/sources';
import { loadConfig, ConfigError } from '../../server/config';
import { decodeMarkingInvalid, markIllegalCharacters } from '../../server/harvest/page';
import { nameFromUrl } from '../../server/harvest/cli';

describe('the harvester’s arithmetic of time', () => {
  it('asks from one granule before the last responseDate, in the source’s granularity', () => {
    expect(incrementalFrom('2024-03-05T10:00:00Z', 'second')).to.equal('2024-03-05T09:59:59Z');
    expect(incrementalFrom('2024-03-05T00:00:00Z', 'second')).to.equal('2024-03-04T23:59:59Z');
    expect(incrementalFrom('2024-03-05T10:00:00Z', 'day')).to.equal('2024-03-04');
    expect(incrementalFrom('2024-03-01T00:00:00Z', 'day')).to.equal('2024-02-29');
    expect(incrementalFrom('yesterday', 'day')).to.equal(null);
  });

  it("takes a list as harvested up to the source's responseDate, never later than this side's clock", () => {
    const now = Date.parse('2026-11-27T16:00:00Z') / 1000;
    expect(harvestedUpTo('2026-11-27T15:59:00Z', now)).to.deep.equal({ at: '2026-11-27T15:59:00Z', aheadSeconds: 0 });
    expect(harvestedUpTo('2030-01-01T00:00:00Z', now)).to.deep.equal({
      at: '2026-11-27T16:00:00Z',
      aheadSeconds: Date.parse('2030-01-01T00:00:00Z') / 1000 - now,
    });
    expect(harvestedUpTo('2026-11-27T16:00:01Z', now)).to.deep.equal({ at: '2026-11-27T16:00:00Z', aheadSeconds: 1 });
    expect(harvestedUpTo('soon', now)).to.equal(null);
  });

  it('reads the granularity Identify declares, days when it says nothing usable', () => {
    expect(granularityOf('YYYY-MM-DDThh:mm:ssZ')).to.equal('second');
    expect(granularityOf('YYYY-MM-DD')).to.equal('day');
    expect(granularityOf(undefined)).to.equal('day');
    expect(inGranularity('2024-03-05T10:00:00Z', 'day')).to.equal('2024-03-05');
    expect(inGranularity('2024-03-05', 'second')).to.equal('2024-03-05');
    expect(inGranularity('5 March', 'second')).to.equal(null);
  });

  it('waits as Retry-After asks, in seconds or as an HTTP date, capped', () => {
    const now = Date.parse('2015-10-21T07:27:50Z');
    expect(retryAfterMs('7', now, 60_000)).to.equal(7000);
    expect(retryAfterMs('7200', now, 60_000)).to.equal(60_000);
    expect(retryAfterMs('Wed, 21 Oct 2015 07:28:00 GMT', now, 60_000)).to.equal(10_000);
    expect(retryAfterMs('Wed, 21 Oct 2015 07:00:00 GMT', now, 60_000)).to.equal(0);
    expect(retryAfterMs('soon', now, 60_000)).to.equal(undefined);
    expect(retryAfterMs(undefined, now, 60_000)).to.equal(undefined);
  });

  it('backs off exponentially, with jitter between half and all of the step, capped', () => {
    expect([1, 2, 3, 4].map((a) => backoffMs(a, 1000, 30_000, () => 1))).to.deep.equal([1000, 2000, 4000, 8000]);
    expect(backoffMs(3, 1000, 30_000, () => 0)).to.equal(2000);
    expect(backoffMs(10, 1000, 30_000, () => 1)).to.equal(30_000);
  });
});

describe('schedules and the sources section', () => {
  it('reads intervals and daily times, and says when a source runs next', () => {
    expect(parseSchedule('6h')).to.deep.equal({ kind: 'every', seconds: 21600, text: '6h' });
    expect(parseSchedule('90s')).to.include({ seconds: 90 });
    expect(parseSchedule('daily 02:30')).to.deep.equal({ kind: 'daily', minute: 150, text: 'daily 02:30' });
    for (const bad of ['0m', '6 hours', 'daily 24:00', 'daily 2:30', '']) expect(parseSchedule(bad), bad).to.equal(null);
    const hourly = parseSchedule('1h');
    const daily = parseSchedule('daily 02:30');
    if (!hourly || !daily) throw new Error('unparsed');
    expect(nextRun(hourly, null)).to.equal(0);
    expect(nextRun(hourly, 1000)).to.equal(4600);
    const day = Date.parse('2024-03-05T00:00:00Z') / 1000;
    expect(nextRun(daily, day + 3600)).to.equal(day + 9000);
    expect(nextRun(daily, day + 9000)).to.equal(day + 86400 + 9000);
  });

  describe('when a scheduler checks a source again: when it is due, at most a tick away', () => {
    const every30 = { kind: 'every', seconds: 30, text: '30s' } as const;
    const hourly = { kind: 'every', seconds: 3600, text: '1h' } as const;
    const cases: { name: string; schedule?: typeof hourly; last: number | null; now: number; tick: number; want: number }[] = [
      { name: 'a source last harvested 27 s before is checked 3 s later, not a whole tick later', last: 1000, now: 1027, tick: 30_000, want: 3000 },
      { name: 'a source that just ran is checked when its 30 s are up', last: 1000, now: 1000, tick: 30_000, want: 30_000 },
      {
        name: 'a source due in an hour is checked again within a tick, for runs of other processes',
        schedule: hourly,
        last: 1000,
        now: 1000,
        tick: 30_000,
        want: 30_000,
      },
      {
        name: 'a source already due (a run another process holds) is checked again after a second, never at once',
        last: 1000,
        now: 1100,
        tick: 30_000,
        want: 1000,
      },
      { name: 'a source that never ran is checked again after a second', last: null, now: 1000, tick: 30_000, want: 1000 },
      { name: 'a tick shorter than a second is kept', last: 1000, now: 1100, tick: 20, want: 20 },
    ];
    for (const c of cases)
      it(c.name, () =>
        expect(nextCheckMs(c.name.includes('an hour') ? { kind: 'every', seconds: 3600, text: '1h' } : every30, c.last, c.now, c.tick)).to.equal(c.want),
      );
  });

  it('reads sources with their defaults, and names the first problem', () => {
    const ok = parseSources([
      { name: 'a', baseUrl: 'https://a.example.org/oai' },
      {
        name: 'b.c-d',
        baseUrl: 'http://b/oai',
        prefixes: ['oai_dc', 'oai_openaire'],
        sets: 'physics',
        schedule: '30m',
        politeness: { delay: 0.5, timeout: 10, retries: 2 },
      },
    ]);
    expect(ok).to.deep.equal({
      sources: [
        { name: 'a', baseUrl: 'https://a.example.org/oai', prefixes: ['oai_dc'], sets: [], politeness: { delayMs: 0, timeoutMs: 60_000, retries: 5 } },
        {
          name: 'b.c-d',
          baseUrl: 'http://b/oai',
          prefixes: ['oai_dc', 'oai_openaire'],
          sets: ['physics'],
          schedule: { kind: 'every', seconds: 1800, text: '30m' },
          politeness: { delayMs: 500, timeoutMs: 10_000, retries: 2 },
        },
      ],
    });
    const cases: [unknown, RegExp][] = [
      [{ name: 'a' }, /^sources must be a list of sources/],
      [[{ name: 'a:b', baseUrl: 'http://a/oai' }], /sources\[0\]\.name must be a word/],
      [[{ name: 'a', baseUrl: 'http://a/oai?verb=Identify' }], /sources\[0\]\.baseUrl must be an http or https URL without a query/],
      [
        [
          { name: 'a', baseUrl: 'http://a/oai' },
          { name: 'a', baseUrl: 'http://b/oai' },
        ],
        /sources\[1\]\.name "a" is given twice/,
      ],
      [[{ name: 'a', baseUrl: 'http://a/oai', schedule: 'hourly' }], /sources\[0\]\.schedule must be/],
      [[{ name: 'a', baseUrl: 'http://a/oai', politeness: { retries: 1.5 } }], /politeness\.retries must be an integer/],
      [[{ name: 'a', baseUrl: 'http://a/oai', url: 'x' }], /sources\[0\]\.url: unknown key/],
    ];
    for (const [value, message] of cases) {
      const r = parseSources(value);
      expect('error' in r ? r.error : '', JSON.stringify(value)).to.match(message);
    }
  });

  it('stops the configuration at the line of a bad source', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'oai-steward-sources-'));
    try {
      const file = path.join(dir, 'hub.yaml');
      fs.writeFileSync(
        file,
        'namespace: hub.example.org\nsources:\n  - name: good\n    baseUrl: https://a.example.org/oai\n  - name: bad\n    baseUrl: ftp://b.example.org/\n',
      );
      expect(() => loadConfig({}, dir, { file })).to.throw(ConfigError, /hub\.yaml:5: sources\[1\]\.baseUrl must be an http or https URL/);
      fs.writeFileSync(file, 'sources:\n  - name: good\n    baseUrl: https://a.example.org/oai\n    schedule: daily 03:00\n');
      expect(loadConfig({}, dir, { file }).sources.map((s) => [s.name, s.schedule?.text])).to.deep.equal([['good', 'daily 03:00']]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('names an ad-hoc source after its host', () => {
    expect(nameFromUrl('https://repository.example.edu/oai')).to.equal('repository.example.edu');
    expect(nameFromUrl('http://127.0.0.1:8080/oai')).to.equal('127.0.0.1-8080');
  });
});

describe('characters XML 1.0 cannot carry', () => {
  it('are marked, raw or as character references, so only their records are refused', () => {
    const r = markIllegalCharacters('<a>ok &#65; &#x9; bell\u0007 &#1; &#xFFFE;</a>');
    expect(r.text).to.equal('<a>ok &#65; &#x9; bell\uFDD0 \uFDD0 \uFDD0</a>');
    expect(r.found).to.deep.equal(['U+0007', 'U+0001', 'U+FFFE']);
    expect(markIllegalCharacters('<a>\u00e9\uD83D\uDE00</a>').found).to.deep.equal([]);
  });

  const utf8: { name: string; bytes: number[]; text: string; invalid: boolean }[] = [
    {
      name: 'UTF-8 of every length is decoded as it is',
      bytes: [0x61, 0xc3, 0xa9, 0xe2, 0x82, 0xac, 0xf0, 0x9f, 0x98, 0x80],
      text: 'a\u00e9\u20ac\uD83D\uDE00',
      invalid: false,
    },
    { name: 'a stray continuation byte is marked', bytes: [0x61, 0x80, 0x62], text: 'a\uFDD0b', invalid: true },
    { name: 'a byte that never starts UTF-8 is marked', bytes: [0x61, 0xff, 0x62], text: 'a\uFDD0b', invalid: true },
    { name: 'an overlong form is marked, byte by byte', bytes: [0xc0, 0xaf], text: '\uFDD0\uFDD0', invalid: true },
    { name: 'an encoded surrogate (CESU-8) is marked', bytes: [0xed, 0xa0, 0x80, 0x61], text: '\uFDD0\uFDD0\uFDD0a', invalid: true },
    { name: 'a code point past U+10FFFF is marked', bytes: [0xf4, 0x90, 0x80, 0x80], text: '\uFDD0\uFDD0\uFDD0\uFDD0', invalid: true },
    { name: 'a sequence cut short by the end is marked', bytes: [0x61, 0xe2, 0x82], text: 'a\uFDD0\uFDD0', invalid: true },
    { name: 'a U+FFFD the source wrote is kept as it is', bytes: [0xef, 0xbf, 0xbd], text: '\uFFFD', invalid: false },
  ];
  for (const c of utf8) {
    it(`reads a page's bytes: ${c.name}`, () => {
      expect(decodeMarkingInvalid(Buffer.from(c.bytes))).to.deep.equal({ text: c.text, invalid: c.invalid });
    });
  }
});
