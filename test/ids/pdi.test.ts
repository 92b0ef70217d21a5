import { expect } from 'chai';
import { eachRow } from '../helpers/table';
import { canonicalPdi, canonicalSeries, checkVersionIncrement, gmtDate, nextPdiVersion, parsePdi, pdiEquivalent } from '../../lib/ids/pdi';
import { mintPdi } from '../../lib/ids/pdi-mint';

describe('urn:pdi', () => {
  describe('the examples of the draft', () => {
    const valid: Array<[string, string]> = [
      // 2.5: an encapsulated URL; 3.6.4 unescapes ":" (OTHER) and lowercases remaining hex.
      [
        'pdi://oma.eop.gov.us/1994/10/20/http%3a%2f%2fwww%2ewhitehouse%2egov%2f.html.1',
        'pdi://oma.eop.gov.us/1994/10/20/http:%2f%2fwww%2ewhitehouse%2egov%2f.html.1',
      ],
      ['pdi://oma.eop.gov.us/1997/09/01/1.text.1#char=37,51', 'pdi://oma.eop.gov.us/1997/09/01/1.text.1#char=37,51'],
      ['pdi://oma.eop.gov.us/1997/09/01/1.text.1#37,51', 'pdi://oma.eop.gov.us/1997/09/01/1.text.1#37,51'],
      ['pdi://video.cnn.co.us/1997/09/30/1234.mpeg.1#sec,23,51', 'pdi://video.cnn.co.us/1997/09/30/1234.mpeg.1#sec,23,51'],
      ['pdi://video.cnn.co.us/1997/09/30/1234.mpeg.1#crop=sec,23,51', 'pdi://video.cnn.co.us/1997/09/30/1234.mpeg.1#crop=sec,23,51'],
      [
        'pdi://video.cnn.co.us/1997/09/30/1234.mpeg.1#crop=sec,23,51,(10,10),(20,20)',
        'pdi://video.cnn.co.us/1997/09/30/1234.mpeg.1#crop=sec,23,51,(10,10),(20,20)',
      ],
      [
        'pdi://oma.eop.gov.us/1997/11/03/4.text.1@103=pdi://oma.eop.gov.us/1997/09/01/1.text.1#37,51',
        'pdi://oma.eop.gov.us/1997/11/03/4.text.1@103=pdi://oma.eop.gov.us/1997/09/01/1.text.1#37,51',
      ],
      ['pdi://oma.eop.gov.us/1997/09/01/1.text.1', 'pdi://oma.eop.gov.us/1997/09/01/1.text.1'],
      ['pdi://oma.eop.gov.us/1997/11/03/4.text.1', 'pdi://oma.eop.gov.us/1997/11/03/4.text.1'],
    ];
    for (const [pdi, canonical] of valid) {
      it(`accepts ${pdi}`, () => {
        const r = parsePdi(pdi);
        expect(r.ok ? r.canonical : r.errors).to.equal(canonical);
      });
    }
    const invalid: Array<[string, RegExp, string]> = [
      // 2.6: no unique-id segment, and "gov" is not a two-letter country code (2.2).
      ['pdi://oma.eop.gov/1997/09/01.html.1', /document-series\/year\/month\/day\/specifier/, 'no unique-id'],
      ['pdi://oma.eop.gov/1997/09/01.text.1', /specifier/, 'no unique-id'],
      ['pdi://oma.eop.gov/1997/09/01.text.2', /specifier/, 'no unique-id'],
      // 3.4: fragments without the version 2.6 requires.
      ['pdi://images.satellite.nasa.gov.us/1997/09/30/1234.gif#(5,10),(25,30)', /version/, 'fragment without version'],
      ['pdi://images.satellite.nasa.gov.us/1997/09/30/1234.gif#(5,10),(25,30),0', /version/, 'fragment without version'],
      ['pdi://images.satellite.nasa.gov.us/1997/09/30/1234.gif#(5,10),(25,30),2', /version/, 'fragment without version'],
      ['pdi://audio.npr.org.us/1997/09/30/1234.au#sec=23,57', /version/, 'fragment without version'],
      ['pdi://documentation.adobe.co.us/1997/09/30/1234.pdf#byte=23,57', /version/, 'fragment without version'],
    ];
    eachRow(
      invalid,
      ([pdi, , why]) => `rejects ${pdi} (${why})`,
      ([pdi, re]) => {
        const r = parsePdi(pdi);
        expect(r.ok).to.equal(false);
        if (!r.ok) expect(r.errors.join('; ')).to.match(re);
      },
    );
    it('accepts the image examples once they carry a version', () => {
      expect(parsePdi('pdi://images.satellite.nasa.gov.us/1997/09/30/1234.gif.1#(5,10),(25,30),2').ok).to.equal(true);
      expect(parsePdi('pdi://images.satellite.nasa.gov.us/1997/09/30/1234.gif.1#rect=(5,10),(25,30)').ok).to.equal(true);
      expect(parsePdi('pdi://audio.npr.org.us/1997/09/30/1234.au.1#sec=23,57').ok).to.equal(true);
      expect(parsePdi('pdi://documentation.adobe.co.us/1997/09/30/1234.pdf.1#byte=23,57').ok).to.equal(true);
    });
  });

  describe('grammar and MUSTs', () => {
    const valid = [
      'urn:pdi://oma.eop.gov.us/1997/09/01/1.text.1',
      'URN:PDI://oma.eop.gov.us/1997/09/01/1',
      'pdi://oma.eop.gov.us/1997/09/01/1.html',
      'pdi://oma.eop.gov.us/*/*/*/*.*.*',
      'pdi://oma.eop.gov.us/1997/*/*/*',
      'pdi://a.us/2000/02/29/x.html.1',
      'pdi://a.us/*/02/29/x',
      'pdi://a.us/12345/01/01/x',
      "pdi://a.us/2000/01/01/a(b)-c:d;e$f_g!h'i.html.1",
      'pdi://a.us/2000/01/01/1.html.1#elt=3,7',
      'pdi://a.us/2000/01/01/1.html.1#name=intro,outro',
      'pdi://a.us/2000/01/01/1.mp4.12#msec=0,1000',
      'pdi://a.us/2000/01/01/1.x-y.1#my-scheme=(a,1),b',
      'pdi://a.us/2000/01/01/1.text.1@(0,0)=pdi://a.us/2000/01/01/2.gif.1#(1,2),(3,4),0',
      'pdi://a.us/2000/01/01/1.image%2bgif.1',
    ];
    for (const pdi of valid) it(`accepts ${pdi}`, () => expect(parsePdi(pdi).ok, pdi).to.equal(true));

    const invalid: Array<[string, string]> = [
      ['http://a.us/2000/01/01/1', 'not pdi'],
      ['pdi:a.us/2000/01/01/1', 'no "//"'],
      ['pdi://a/2000/01/01/1', 'no country code'],
      ['pdi://a.usa/2000/01/01/1', 'three-letter country'],
      ['pdi://a.u1/2000/01/01/1', 'digit in country'],
      ['pdi://a_b.us/2000/01/01/1', 'underscore in component'],
      ['pdi://*.us/2000/01/01/1', 'wildcard in series'],
      ['pdi://a.us/200/01/01/1', 'three-digit year'],
      ['pdi://a.us/2000/13/01/1', 'month 13'],
      ['pdi://a.us/2000/1/01/1', 'one-digit month'],
      ['pdi://a.us/2001/02/29/1', 'not a leap year'],
      ['pdi://a.us/2000/04/31/1', 'April 31'],
      ['pdi://a.us/2000/01/00/1', 'day 0'],
      ['pdi://a.us/2000/01/01/', 'empty unique-id'],
      ['pdi://a.us/2000/01/01/a*b', 'wildcard inside unique-id'],
      ['pdi://a.us/2000/01/01/a+b', 'unescaped reserved "+"'],
      ['pdi://a.us/2000/01/01/a?b', 'unescaped reserved "?"'],
      ['pdi://a.us/2000/01/01/a b', 'space'],
      ['pdi://a.us/2000/01/01/a.b.c.d', 'unescaped "." in unique-id'],
      ['pdi://a.us/2000/01/01/1.html.0', 'version 0'],
      ['pdi://a.us/2000/01/01/1.html.01', 'leading zero'],
      ['pdi://a.us/2000/01/01/1.html.x', 'non-numeric version'],
      ['pdi://a.us/2000/01/01/1.ht%zz', 'bad escape in format'],
      ['pdi://a.us/2000/01/01/1#char=1,2', 'fragment without format'],
      ['pdi://a.us/2000/01/01/1.text#char=1,2', 'fragment without version'],
      ['pdi://a.us/2000/01/01/1.*.1#char=1,2', 'fragment with wildcard format'],
      ['pdi://a.us/2000/01/01/1.text.1#char=5,2', 'char interval backwards'],
      ['pdi://a.us/2000/01/01/1.text.1#char=1', 'char with one position'],
      ['pdi://a.us/2000/01/01/1.text.1#1,2,3', 'default char with three positions'],
      ['pdi://a.us/2000/01/01/1.gif.1#rect=(1,2)', 'rect with one coordinate'],
      ['pdi://a.us/2000/01/01/1.gif.1#rect=(1,2),(3,4),x', 'rect with a non-numeric frame'],
      ['pdi://a.us/2000/01/01/1.mpeg.1#crop=sec,1,2,(1,1)', 'crop with one coordinate'],
      ['pdi://a.us/2000/01/01/1.pdf.1#byte=a,b', 'byte with names'],
      ['pdi://a.us/2000/01/01/1.gif.1#(1,2', 'unbalanced parenthesis'],
      ['pdi://a.us/2000/01/01/1.gif.1#ch4r=1,2', 'scheme with a digit'],
      ['pdi://a.us/2000/01/01/1.text@5=pdi://a.us/2000/01/01/2.text.1', 'citation without version'],
      ['pdi://a.us/2000/01/01/1.text.1@5=http://x', 'citation of a non-PDI'],
      ['pdi://a.us/2000/01/01/1.text.1@5', 'citation without "="'],
      ['pdi://a.us/2000/01/01/1.text.1@5=pdi://a.us/2000/01/01/2.text#1,2', 'cited PDI breaks a MUST'],
    ];
    eachRow(
      invalid,
      ([pdi, why]) => `rejects ${pdi} (${why})`,
      ([pdi]) => {
        expect(parsePdi(pdi).ok).to.equal(false);
      },
    );
  });

  describe('lexical equivalence (3.6.4)', () => {
    const cases: Array<[string, string]> = [
      ['PDI://OMA.EOP.GOV.US/1997/09/01/Doc%41.TEXT.1', 'pdi://oma.eop.gov.us/1997/09/01/DocA.text.1'],
      ['pdi://a.us/2000/01/01/x%2F%3A%28%7E.html.1', 'pdi://a.us/2000/01/01/x%2f:(%7e.html.1'],
      ['pdi://a.us/2000/01/01/1.HTML.1#NAME=Intro,Outro', 'pdi://a.us/2000/01/01/1.html.1#name=Intro,Outro'],
      ['pdi://a.us/2000/01/01/1.MPEG.1#CROP=SEC,1,2', 'pdi://a.us/2000/01/01/1.mpeg.1#crop=sec,1,2'],
      ['pdi://a.us/2000/01/01/1.text.1@5=PDI://A.US/2000/01/01/2.TEXT.1', 'pdi://a.us/2000/01/01/1.text.1@5=pdi://a.us/2000/01/01/2.text.1'],
      ['Urn:Pdi://A.us/*/*/*/*', 'urn:pdi://a.us/*/*/*/*'],
      ['pdi://a.us/2000/01/01/1.IMAGE%2BGIF.1', 'pdi://a.us/2000/01/01/1.image%2bgif.1'],
    ];
    for (const [pdi, canonical] of cases) it(`canonicalizes ${pdi} to ${canonical}`, () => expect(canonicalPdi(pdi)).to.equal(canonical));

    it('keeps the unique-id case: two ids differing in case are not equivalent', () => {
      expect(pdiEquivalent('pdi://a.us/2000/01/01/Abc.text.1', 'pdi://a.us/2000/01/01/abc.text.1')).to.equal(false);
    });
    it('treats the URN and URL forms as equivalent', () => {
      expect(pdiEquivalent('urn:pdi://A.US/2000/01/01/%41.TEXT.1', 'pdi://a.us/2000/01/01/A.text.1')).to.equal(true);
    });
    it('makes wildcards equal only in the same positions', () => {
      expect(pdiEquivalent('pdi://a.us/2000/*/01/1', 'pdi://a.us/2000/01/*/1')).to.equal(false);
      expect(pdiEquivalent('pdi://a.us/2000/*/01/1', 'pdi://a.us/2000/*/01/1')).to.equal(true);
    });
    it('never finds an invalid PDI equivalent', () => expect(pdiEquivalent('pdi://a', 'pdi://a')).to.equal(false));
    it('does not drop a default fragment scheme (not one of the five steps)', () => {
      expect(pdiEquivalent('pdi://a.us/2000/01/01/1.text.1#char=1,2', 'pdi://a.us/2000/01/01/1.text.1#1,2')).to.equal(false);
    });
  });

  describe('minting', () => {
    const cases: Array<[Parameters<typeof mintPdi>[0], string]> = [
      [{ series: 'pubs.example.us', format: 'html', date: '2024-03-01', nextSerial: 1 }, 'urn:pdi://pubs.example.us/2024/03/01/1.html.1'],
      [{ series: 'Pubs.Example.US', format: 'TEXT', date: '2024-02-29', nextSerial: 42 }, 'urn:pdi://pubs.example.us/2024/02/29/42.text.1'],
      [{ series: 'a.us', format: 'pdf', date: '1999-12-31', nextSerial: 7, form: 'url' }, 'pdi://a.us/1999/12/31/7.pdf.1'],
    ];
    for (const [input, pdi] of cases) {
      it(`mints ${pdi}, fully specified and canonical`, () => {
        const minted = mintPdi(input);
        expect(minted).to.equal(pdi);
        const p = parsePdi(minted);
        expect(p.ok && !p.hasWildcard && p.format !== null && p.version === '1' && p.canonical === minted).to.equal(true);
      });
    }
    const refusals: Array<[Parameters<typeof mintPdi>[0], RegExp]> = [
      [{ series: 'a.us', format: 'html', date: '2024-03-01', nextSerial: 0 }, /serial/],
      [{ series: 'a.us', format: 'html', date: '2024-03-01', nextSerial: 1.5 }, /serial/],
      [{ series: 'a.us', format: '*', date: '2024-03-01', nextSerial: 1 }, /wildcard/],
      [{ series: 'a.usa', format: 'html', date: '2024-03-01', nextSerial: 1 }, /country/],
      [{ series: 'a.us', format: 'html', date: '2023-02-29', nextSerial: 1 }, /does not exist/],
      [{ series: 'a.us', format: 'html', date: '2024/03/01', nextSerial: 1 }, /YYYY-MM-DD/],
      [{ series: 'a.us', format: 'ht.ml', date: '2024-03-01', nextSerial: 1 }, /version/],
    ];
    for (const [input, re] of refusals) {
      it(`refuses to mint ${JSON.stringify(input)}`, () => expect(() => mintPdi(input)).to.throw(RangeError, re));
    }
    it('gives the GMT date of an instant, not the local one', () => {
      expect(gmtDate(new Date('2024-03-01T23:30:00-05:00'))).to.equal('2024-03-02');
      expect(gmtDate(new Date('2024-03-02T00:30:00+02:00'))).to.equal('2024-03-01');
    });
    it('keys counters by the canonical series', () => {
      expect(canonicalSeries('Pubs.Example.US')).to.equal('pubs.example.us');
      expect(() => canonicalSeries('example')).to.throw(RangeError);
    });
  });

  describe('versions never go back', () => {
    it('increments the version', () => {
      expect(nextPdiVersion('urn:pdi://a.us/2024/03/01/1.html.1')).to.equal('urn:pdi://a.us/2024/03/01/1.html.2');
      expect(nextPdiVersion('pdi://a.us/2024/03/01/1.html.9')).to.equal('pdi://a.us/2024/03/01/1.html.10');
    });
    it('treats a missing version as version 1 (2.6)', () => {
      expect(nextPdiVersion('pdi://a.us/2024/03/01/1.html')).to.equal('pdi://a.us/2024/03/01/1.html.2');
    });
    it('refuses a PDI without a format or with wildcards', () => {
      expect(() => nextPdiVersion('pdi://a.us/2024/03/01/1')).to.throw(RangeError, /format/);
      expect(() => nextPdiVersion('pdi://a.us/2024/*/01/1.html.1')).to.throw(RangeError, /wildcard/);
    });
    const checks: Array<[string, string, RegExp | null]> = [
      ['pdi://a.us/2024/03/01/1.html.1', 'pdi://a.us/2024/03/01/1.html.2', null],
      ['pdi://a.us/2024/03/01/1.html.1', 'pdi://A.US/2024/03/01/1.text.3', null],
      ['pdi://a.us/2024/03/01/1.html.2', 'pdi://a.us/2024/03/01/1.html.2', /never go back/],
      ['pdi://a.us/2024/03/01/1.html.2', 'pdi://a.us/2024/03/01/1.html.1', /never go back/],
      ['pdi://a.us/2024/03/01/1.html', 'pdi://a.us/2024/03/01/1.html.1', /never go back/],
      ['pdi://a.us/2024/03/01/1.html.1', 'pdi://a.us/2024/03/01/2.html.2', /another resource/],
      ['pdi://a.us/2024/03/01/1.html.1', 'pdi://a.us/2024/03/01/1.html', /format and a version/],
    ];
    for (const [latest, next, re] of checks) {
      it(`${re === null ? 'allows' : 'refuses'} ${next} after ${latest}`, () => {
        const r = checkVersionIncrement(latest, next);
        if (re === null) expect(r).to.equal(null);
        else expect(r).to.match(re);
      });
    }
  });
});
