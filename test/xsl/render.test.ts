/**
 * The browser view (issue 4, "A page for people"): lib/xml/oai2.xsl turns
 * every OAI-PMH response into an HTML page with links.
 *
 * The stylesheet is run with xsltproc (Debian package `xsltproc`), which
 * uses libxslt, the XSLT engine Chromium embeds; libxmljs2 has no XSLT.
 * These tests check what the page says and, above all, that every link
 * carries its arguments intact: identifiers may contain '%', '#', '?', '+',
 * '&', spaces and non-ASCII text, and a harvester-facing provider is judged
 * by whether following a link asks for the same item.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import fc from 'fast-check';
import { OAI_DC_NS, OAI_DC_SCHEMA, OAI_NS } from '../../lib/xml/namespaces';

const root = path.resolve(__dirname, '..', '..');
const stylesheet = path.join(root, 'lib', 'xml', 'oai2.xsl');
// The published example responses, copied into the test fixtures.
const examplesDir = path.join(root, 'test', 'fixtures', 'spec-examples');
const fixture = path.join(__dirname, 'fixtures', 'tricky-identifiers.xml');
// The same stylesheet with XML output: the result tree without the URI
// escaping libxml2's HTML serializer adds to href attributes.
const rawStylesheet = path.join(__dirname, 'fixtures', 'as-xml.xsl');

/** Runs a stylesheet (by default oai2.xsl) over an XML document given as text; any xsltproc message fails. */
function transform(xml: string, xsl: string = stylesheet): string {
  const run = spawnSync('xsltproc', ['--nonet', xsl, '-'], { input: xml, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  expect(run.error, 'xsltproc runs').to.equal(undefined);
  expect(run.stderr, 'xsltproc messages').to.equal('');
  expect(run.status, 'xsltproc exit status').to.equal(0);
  return run.stdout;
}

function transformFile(file: string): string {
  return transform(fs.readFileSync(file, 'utf8'));
}

/** Decodes the character references libxml2's HTML serializer writes. */
function unescapeHtml(s: string): string {
  return s.replace(/&(#x[0-9a-fA-F]+|#[0-9]+|amp|lt|gt|quot|apos);/g, (_m, e: string) => {
    if (e === 'amp') return '&';
    if (e === 'lt') return '<';
    if (e === 'gt') return '>';
    if (e === 'quot') return '"';
    if (e === 'apos') return "'";
    return String.fromCodePoint(e.startsWith('#x') ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10));
  });
}

interface Link {
  readonly href: string;
  readonly text: string;
  readonly cls: string;
}

/** Every <a> of the page with its raw href (as a browser would read it), text and class. */
function links(html: string): Link[] {
  const found: Link[] = [];
  for (const m of html.matchAll(/<a\b([^>]*)>([\s\S]*?)<\/a>/g)) {
    const attrs = m[1] ?? '';
    const href = /\bhref="([^"]*)"/.exec(attrs)?.[1];
    if (href === undefined) continue;
    found.push({
      href: unescapeHtml(href),
      text: unescapeHtml((m[2] ?? '').replace(/<[^>]*>/g, '')).trim(),
      cls: /\bclass="([^"]*)"/.exec(attrs)?.[1] ?? '',
    });
  }
  return found;
}

/** The query arguments of a link, decoded the way a server decodes them. */
function args(href: string): Record<string, string> {
  const url = new URL(href, 'http://localhost:3000/oai?verb=Identify');
  expect(url.pathname, `link ${href} leaves the page`).to.equal('/oai');
  const out: Record<string, string> = {};
  for (const [k, v] of url.searchParams) {
    expect(out, `link ${href} repeats ${k}`).not.to.have.property(k);
    out[k] = v;
  }
  return out;
}

/** The visible text of the page, tags removed and whitespace collapsed. */
function text(html: string): string {
  const body = html.replace(/^[\s\S]*<body>/, '');
  return unescapeHtml(body.replace(/<[^>]*>/g, ' ')).replace(/\s+/g, ' ');
}

function example(name: string): string {
  return path.join(examplesDir, name);
}

/** Builds a ListRecords response holding the given identifiers, sets and token. */
function listRecords(ids: readonly string[], setSpec: string, token: string): string {
  // Element content keeps every character except CR, which parsers turn into LF.
  const esc = (s: string): string =>
    s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/\r/g, '&#13;');
  const records = ids
    .map(
      (id) =>
        `<record><header><identifier>${esc(id)}</identifier><datestamp>2024-01-01</datestamp>` +
        `<setSpec>${esc(setSpec)}</setSpec></header></record>`,
    )
    .join('');
  return (
    `<?xml version="1.0" encoding="UTF-8"?>\n` +
    `<OAI-PMH xmlns="${OAI_NS}"><responseDate>2024-01-01T00:00:00Z</responseDate>` +
    `<request verb="ListRecords" metadataPrefix="oai_dc">http://localhost:3000/oai</request>` +
    `<ListRecords>${records}<resumptionToken cursor="0">${esc(token)}</resumptionToken></ListRecords></OAI-PMH>`
  );
}

describe('the browser view stylesheet (lib/xml/oai2.xsl)', () => {
  before(() => {
    // No skipping: without xsltproc this suite must fail, loudly.
    expect(() => execFileSync('xsltproc', ['--version'], { stdio: 'pipe' }), 'xsltproc is installed (apt-get install -y xsltproc)').not.to.throw();
  });

  describe('on every published example response', () => {
    const files = fs
      .readdirSync(examplesDir)
      .filter((f) => f.endsWith('.xml'))
      .filter((f) => /<OAI-PMH\b/.test(fs.readFileSync(path.join(examplesDir, f), 'utf8')))
      .sort();

    it('finds the example OAI-PMH responses to render', () => {
      expect(files.length).to.be.greaterThan(15);
    });

    for (const f of files) {
      it(`renders ${f} as a page with the base URL and the navigation links`, () => {
        const html = transformFile(example(f));
        const src = fs.readFileSync(example(f), 'utf8');
        const base = /<request\b[^>]*>([\s\S]*?)<\/request>/.exec(src)?.[1]?.trim() ?? '';
        expect(html).to.match(/^<!DOCTYPE html>/i);
        expect(text(html)).to.include(base);
        const nav = links(html)
          .filter((l) => l.href.startsWith('?'))
          .map((l) => args(l.href));
        expect(nav).to.deep.include({ verb: 'Identify' });
        expect(nav).to.deep.include({ verb: 'ListRecords', metadataPrefix: 'oai_dc' });
        expect(nav).to.deep.include({ verb: 'ListIdentifiers', metadataPrefix: 'oai_dc' });
        expect(nav).to.deep.include({ verb: 'ListSets' });
        expect(nav).to.deep.include({ verb: 'ListMetadataFormats' });
      });
    }
  });

  describe('Identify', () => {
    const html = (): string => transformFile(example('ex-sec4.2.xml'));

    const cases: { name: string; expected: string }[] = [
      { name: 'the repository name', expected: 'Library of Congress Open Archive Initiative Repository 1' },
      { name: 'the base URL', expected: 'http://memory.loc.gov/cgi-bin/oai' },
      { name: 'the protocol version', expected: 'Protocol version 2.0' },
      { name: 'the earliest datestamp', expected: '1990-02-01T12:00:00Z' },
      { name: 'the deleted record policy', expected: 'Deleted records transient' },
      { name: 'the granularity', expected: 'YYYY-MM-DDThh:mm:ssZ' },
      { name: 'the compression', expected: 'deflate' },
      { name: 'the repository identifier', expected: 'lcoa1.loc.gov' },
    ];
    for (const c of cases) {
      it(`shows ${c.name}`, () => {
        expect(text(html())).to.include(c.expected);
      });
    }

    it('links each admin email with mailto', () => {
      const hrefs = links(html()).map((l) => l.href);
      expect(hrefs).to.include.members(['mailto:somebody@loc.gov', 'mailto:anybody@loc.gov']);
    });

    it('links the sample identifier to GetRecord in oai_dc', () => {
      const sample = links(html()).find((l) => l.text === 'oai:lcoa1.loc.gov:loc.music/musdi.002');
      expect(sample).to.not.equal(undefined);
      expect(args(sample!.href)).to.deep.equal({
        verb: 'GetRecord',
        identifier: 'oai:lcoa1.loc.gov:loc.music/musdi.002',
        metadataPrefix: 'oai_dc',
      });
    });

    it('shows other description containers by their element names', () => {
      const t = text(html());
      expect(t).to.include('friends');
      expect(t).to.include('http://oai.east.org/foo/');
    });
  });

  describe('ListSets', () => {
    it('links every set to ListRecords for that set', () => {
      const html = transformFile(example('ex-sec4.6a.xml'));
      const sets = links(html)
        .map((l) => args(l.href))
        .filter((a) => a.verb === 'ListRecords' && a.set !== undefined)
        .map((a) => a.set);
      expect(sets).to.deep.equal(['music', 'music:(muzak)', 'music:(elec)', 'video']);
      expect(text(html)).to.include('Electronic Music Collection');
    });
  });

  describe('ListMetadataFormats', () => {
    it('links every prefix to ListRecords in that format and shows schema and namespace', () => {
      const html = transformFile(example('ex-sec4.4b.xml'));
      const src = fs.readFileSync(example('ex-sec4.4b.xml'), 'utf8');
      const prefixes = [...src.matchAll(/<metadataPrefix>\s*(.*?)\s*<\/metadataPrefix>/g)].map((m) => m[1]);
      expect(prefixes.length).to.be.greaterThan(0);
      for (const p of prefixes) {
        const link = links(html).find((l) => l.text === p);
        expect(link, `link for ${p}`).to.not.equal(undefined);
        expect(args(link!.href)).to.deep.equal({ verb: 'ListRecords', metadataPrefix: p });
      }
      expect(text(html)).to.include(OAI_DC_SCHEMA);
      expect(text(html)).to.include(OAI_DC_NS);
    });

    it('links the prefixes of one item to that item in each format', () => {
      const html = transformFile(example('ex-sec4.4a.xml'));
      const olac = links(html).find((l) => l.text === 'olac');
      expect(args(olac!.href)).to.deep.equal({
        verb: 'GetRecord',
        identifier: 'oai:perseus.tufts.edu:Perseus:text:1999.02.0119',
        metadataPrefix: 'olac',
      });
    });
  });

  describe('ListIdentifiers', () => {
    const html = (): string => transformFile(example('ex-sec4.3a.xml'));

    it('lists every identifier linked to GetRecord in oai_dc', () => {
      const ids = links(html())
        .filter((l) => l.cls === 'identifier')
        .map((l) => args(l.href));
      expect(ids).to.deep.equal(
        ['hep-th/9801001', 'hep-th/9801002', 'hep-th/9801005', 'hep-th/9801010'].map((local) => ({
          verb: 'GetRecord',
          identifier: `oai:arXiv.org:${local}`,
          metadataPrefix: 'oai_dc',
        })),
      );
    });

    it('links each identifier to its metadata formats', () => {
      const formats = links(html()).filter((l) => l.cls === 'formats').map((l) => args(l.href));
      expect(formats[0]).to.deep.equal({ verb: 'ListMetadataFormats', identifier: 'oai:arXiv.org:hep-th/9801001' });
    });

    it('links each setSpec to ListRecords for that set', () => {
      const sets = links(html()).filter((l) => l.cls === 'set').map((l) => args(l.href).set);
      expect(sets).to.deep.equal(['physic:hep', 'physic:hep', 'physic:exp', 'physic:hep', 'physic:hep', 'math']);
    });

    it('marks the deleted header, and only that one', () => {
      const boxes = html().split('<div class="record');
      const deleted = boxes.filter((b) => b.startsWith(' deleted'));
      expect(deleted).to.have.length(1);
      expect(deleted[0]).to.include('oai:arXiv.org:hep-th/9801010');
      expect(deleted[0]).to.include('<span class="badge">deleted</span>');
    });

    it('links the next page with the same verb and the resumption token', () => {
      const next = links(html()).find((l) => l.cls === 'next');
      expect(next!.href).to.equal('?verb=ListIdentifiers&resumptionToken=xxx45abttyz');
    });

    it('shows the cursor and the complete list size', () => {
      const t = text(html());
      expect(t).to.include('Items 1–4 of 6');
      expect(t).to.include('complete list size 6');
    });

    it('has no next link on the last page, where the token is empty', () => {
      const last = transformFile(example('ex-sec4.3b.xml'));
      expect(links(last).filter((l) => l.cls === 'next')).to.have.length(0);
      expect(text(last)).to.include('Last page');
      expect(text(last)).to.include('Items 5–6 of 6');
    });
  });

  describe('ListRecords and GetRecord', () => {
    it('shows oai_dc metadata as a field and value table', () => {
      const html = transformFile(example('ex-sec4.5b.xml'));
      expect(html).to.match(/<th>Title<\/th>\s*<td>Opera Minora<\/td>/);
      expect(html).to.match(/<th>Creator<\/th>\s*<td>Cornelius Tacitus<\/td>/);
      expect(text(html)).to.include('Germany and its Tribes');
    });

    it('shows the about container by its element names', () => {
      const t = text(transformFile(example('ex-sec4.5b.xml')));
      expect(t).to.include('provenance');
      expect(t).to.include('oai:r2.org:klik001');
    });

    it('shows the record of GetRecord with its header and metadata', () => {
      const html = transformFile(example('ex-sec4.1a.xml'));
      const id = links(html).find((l) => l.cls === 'identifier');
      expect(args(id!.href).identifier).to.equal('oai:arXiv.org:cs/0112017');
      expect(text(html)).to.include('Using Structural Metadata to Localize Experience of Digital Content');
    });

    it('shows metadata in other formats as element names and text', () => {
      const xml = fs
        .readFileSync(example('ex-sec4.1a.xml'), 'utf8')
        .replace(/<metadata>[\s\S]*<\/metadata>/, '<metadata><m:item xmlns:m="urn:x-test"><m:name lang="en">Widget</m:name><m:part><m:size>7</m:size></m:part></m:item></metadata>');
      const t = text(transform(xml));
      expect(t).to.include('m:name');
      expect(t).to.include('lang="en"');
      expect(t).to.include('Widget');
      expect(t).to.include('m:size : 7');
    });
  });

  describe('errors', () => {
    const cases = [
      { file: 'ex-sec3.6a.xml', code: 'badVerb' },
      { file: 'ex-sec3.6b.xml', code: 'noSetHierarchy' },
      { file: 'ex-sec4.1b.xml', code: 'idDoesNotExist', message: 'No matching identifier in arXiv' },
      { file: 'ex-sec4.1c.xml', code: 'cannotDisseminateFormat' },
      { file: 'ex-sec4.3c.xml', code: 'noRecordsMatch' },
    ];
    for (const c of cases) {
      it(`shows the ${c.code} code of ${c.file}${c.message ? ' with its message' : ''}`, () => {
        const html = transformFile(example(c.file));
        expect(html).to.include(`<code>${c.code}</code>`);
        if (c.message) expect(text(html)).to.include(c.message);
        expect(html).to.include('<title>OAI-PMH error</title>');
      });
    }

    it('shows every error of a response with several', () => {
      const xml = fs
        .readFileSync(example('ex-sec3.6a.xml'), 'utf8')
        .replace(/<error[\s\S]*<\/error>/, '<error code="badArgument">first</error><error code="badResumptionToken">second</error>');
      const html = transform(xml);
      expect(html).to.include('<code>badArgument</code>');
      expect(html).to.include('<code>badResumptionToken</code>');
    });
  });

  describe('links to items with difficult identifiers', () => {
    const html = (): string => transformFile(fixture);
    const tricky = 'oai:demo.org:a%20b#c?d+e&f';

    it('percent-encodes %, #, ?, + and & in the GetRecord link', () => {
      const link = links(html()).find((l) => l.text === tricky);
      expect(link).to.not.equal(undefined);
      for (const part of ['%2520', '%23', '%3F', '%2B', '%26']) expect(link!.href).to.include(part);
      expect(link!.href).to.equal('?verb=GetRecord&identifier=oai%3Ademo.org%3Aa%2520b%23c%3Fd%2Be%26f&metadataPrefix=oai_dc');
    });

    it('brings the identifier back unchanged when the server decodes the link', () => {
      const ids = links(html()).filter((l) => l.cls === 'identifier').map((l) => args(l.href).identifier);
      expect(ids).to.deep.equal([tricky, 'oai:demo.org:Zoë/übersicht 2']);
    });

    it('encodes the ASCII characters itself and leaves non-ASCII text to the browser', () => {
      const raw = links(transform(fs.readFileSync(fixture, 'utf8'), rawStylesheet)).filter((l) => l.cls === 'identifier');
      expect(raw.map((l) => l.href)).to.deep.equal([
        '?verb=GetRecord&identifier=oai%3Ademo.org%3Aa%2520b%23c%3Fd%2Be%26f&metadataPrefix=oai_dc',
        '?verb=GetRecord&identifier=oai%3Ademo.org%3AZoë%2Fübersicht%202&metadataPrefix=oai_dc',
      ]);
    });

    it('brings the setSpec back unchanged from the set link', () => {
      const sets = links(html()).filter((l) => l.cls === 'set').map((l) => args(l.href).set);
      expect(sets).to.deep.equal(['maps:europe&asia']);
    });

    it('marks the deleted record and says it has no metadata', () => {
      const t = text(html());
      expect(t).to.include('oai:demo.org:Zoë/übersicht 2 deleted');
      expect(t).to.include('This record has been deleted');
    });

    it('links the next page with the token as it was sent', () => {
      const next = links(html()).find((l) => l.cls === 'next');
      expect(args(next!.href)).to.deep.equal({ verb: 'ListRecords', resumptionToken: 'v1.eyJjIjoiMjAyNC0wNC0zMCJ9.Qm9-_x' });
    });

    it('links metadata values only when they are http or https URLs', () => {
      const hrefs = links(html()).map((l) => l.href);
      expect(hrefs).to.include('https://demo.org/items/a%20b');
      expect(hrefs.some((h) => h.startsWith('javascript:'))).to.equal(false);
      expect(text(html())).to.include('javascript:alert(1)');
    });

    it('round-trips any identifier, setSpec and token through its link', () => {
      // Single characters, weighted towards the ones that break naive links.
      const char = fc.oneof(
        { arbitrary: fc.constantFrom('%', '#', '?', '+', '&', ' ', '"', "'", '<', '>', ':', '/', '=', ';', '\t', '\n', '\r', '~', '.'), weight: 3 },
        { arbitrary: fc.string({ unit: 'binary-ascii', minLength: 1, maxLength: 1 }), weight: 3 },
        { arbitrary: fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }), weight: 2 },
      );
      // XML 1.0 section 2.2: the characters a document may contain.
      const xmlChar = /^[\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]$/u;
      const value = fc
        .array(char, { minLength: 1, maxLength: 24 })
        .map((cs) => cs.filter((c) => xmlChar.test(c)).join(''))
        .filter((s) => s.length > 0);
      fc.assert(
        fc.property(fc.uniqueArray(value, { minLength: 1, maxLength: 8 }), value, value, (ids, setSpec, token) => {
          // Both as serialized HTML (xsltproc, Chromium) and as the raw result tree (Firefox).
          for (const xsl of [stylesheet, rawStylesheet]) {
            const page = links(transform(listRecords(ids, setSpec, token), xsl));
            expect(page.filter((l) => l.cls === 'identifier').map((l) => args(l.href).identifier)).to.deep.equal(ids);
            expect(page.filter((l) => l.cls === 'formats').map((l) => args(l.href).identifier)).to.deep.equal(ids);
            expect(page.filter((l) => l.cls === 'set').map((l) => args(l.href).set)).to.deep.equal(ids.map(() => setSpec));
            expect(args(page.find((l) => l.cls === 'next')!.href)).to.deep.equal({ verb: 'ListRecords', resumptionToken: token });
          }
        }),
        { numRuns: 40 },
      );
    });

    it('encodes a very long token without running out of template depth', () => {
      const token = 'a+b/'.repeat(5000);
      const next = links(transform(listRecords(['oai:x.org:1'], 's', token))).find((l) => l.cls === 'next');
      expect(args(next!.href).resumptionToken).to.equal(token);
    });
  });

  it('renders a document that is not an OAI-PMH response as its element tree', () => {
    const t = text(transformFile(example('ex-sec5b.xml')));
    expect(t).to.include('oai_dc:dc');
    expect(t).to.include("Grassmann's space analysis");
  });
});
