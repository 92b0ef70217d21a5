/**
 * Content negotiation at the endpoint: the `Accept` of browsers, curl and
 * the harvesting clients, with the type each one gets. Pages only for a
 * strict preference of text/html over XML; everyone else gets the XML a
 * request without `Accept` gets, byte for byte, still XSD-valid.
 */
import { execFile } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import { OaiPmh } from 'oai-pmh';
import { prefersHtml, wantsLinkset, parseAccept } from '../../../server/http/negotiate';
import { forEachProvider, request, checkOai, errorCodes } from '../../helpers/server';

/** The Accept header of each client (browsers: as they send it for a page load), and what it gets. */
const CLIENTS: ReadonlyArray<{ client: string; accept: string | undefined; gets: 'html' | 'xml' }> = [
  {
    client: 'Chrome / Chromium 156',
    accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,image/apng,*/*;q=0.8,application/signed-exchange;v=b3;q=0.7',
    gets: 'html',
  },
  { client: 'Firefox 128+', accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8', gets: 'html' },
  { client: 'Safari 17', accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8', gets: 'html' },
  { client: 'curl', accept: '*/*', gets: 'xml' },
  { client: 'wget', accept: '*/*', gets: 'xml' },
  { client: 'npm oai-pmh (request)', accept: undefined, gets: 'xml' },
  { client: 'Perl oai_pmh (HTTP::OAI, LWP)', accept: undefined, gets: 'xml' },
  { client: 'Python requests and sickle (which uses requests)', accept: '*/*', gets: 'xml' },
];

/** Edge cases of the rule: ties and wildcards go to XML. */
const RULES: ReadonlyArray<{ name: string; accept: string; gets: 'html' | 'xml' }> = [
  { name: 'text/xml alone', accept: 'text/xml', gets: 'xml' },
  { name: 'application/xml alone', accept: 'application/xml', gets: 'xml' },
  { name: 'text/html alone', accept: 'text/html', gets: 'html' },
  { name: 'text/html in capitals', accept: 'TEXT/HTML', gets: 'html' },
  { name: 'a tie of text/html and text/xml', accept: 'text/html, text/xml', gets: 'xml' },
  { name: 'a tie through text/*', accept: 'text/*', gets: 'xml' },
  { name: 'text/html below */*', accept: 'text/html;q=0.5, */*', gets: 'xml' },
  { name: 'text/html above */* with XML refused', accept: 'text/html, application/xml;q=0, text/xml;q=0, */*;q=0.1', gets: 'html' },
  { name: 'text/html refused with q=0', accept: 'text/html;q=0', gets: 'xml' },
  { name: 'a variant of text/html with a parameter only', accept: 'text/html;level=1', gets: 'xml' },
  { name: 'a broken weight, which drops the range', accept: 'text/html;q=2', gets: 'xml' },
  { name: 'garbage', accept: 'html please', gets: 'xml' },
  { name: 'the most specific range counts, not the first', accept: 'text/*;q=0.1, text/html', gets: 'html' },
];

describe('prefersHtml', () => {
  for (const c of CLIENTS) {
    it(`gives ${c.client} ${c.gets === 'html' ? 'a page' : 'XML'}`, () => {
      expect(prefersHtml(c.accept)).to.equal(c.gets === 'html');
    });
  }
  for (const c of RULES) {
    it(`gives ${c.name} ${c.gets === 'html' ? 'a page' : 'XML'}`, () => {
      expect(prefersHtml(c.accept)).to.equal(c.gets === 'html');
    });
  }

  it('reads weights with up to three decimals', () => {
    expect(parseAccept('a/b;q=0.125, c/d;q=1.000, e/f;q=0.1234').map((r) => r.q)).to.deep.equal([0.125, 1]);
  });
});

describe('wantsLinkset', () => {
  const cases: Array<[string | undefined, 'json' | 'text' | null]> = [
    ['application/linkset+json', 'json'],
    ['application/linkset', 'text'],
    ['application/linkset;q=0.9, application/linkset+json;q=0.5', 'text'],
    ['application/linkset, application/linkset+json', 'json'],
    ['*/*', null],
    ['application/*', null],
    [undefined, null],
    ['text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8', null],
  ];
  for (const [accept, want] of cases) {
    it(`reads ${JSON.stringify(accept)} as ${want ?? 'no linkset'}`, () => {
      expect(wantsLinkset(accept)).to.equal(want);
    });
  }
});

describe('the Accept the harvesting clients of the suite really send', function () {
  this.timeout(60_000);
  let server: http.Server;
  let url: string;
  const seen: Array<string | undefined> = [];
  // A minimal valid Identify, so every client finishes its request normally.
  const IDENTIFY =
    '<?xml version="1.0" encoding="UTF-8"?><OAI-PMH xmlns="http://www.openarchives.org/OAI/2.0/"><responseDate>2026-01-01T00:00:00Z</responseDate>' +
    '<request verb="Identify">http://x/oai</request><Identify><repositoryName>x</repositoryName><baseURL>http://x/oai</baseURL><protocolVersion>2.0</protocolVersion>' +
    '<adminEmail>a@x.org</adminEmail><earliestDatestamp>2026-01-01T00:00:00Z</earliestDatestamp><deletedRecord>no</deletedRecord>' +
    '<granularity>YYYY-MM-DDThh:mm:ssZ</granularity></Identify></OAI-PMH>';

  before(async () => {
    server = http.createServer((req, res) => {
      seen.push(req.headers.accept);
      res.writeHead(200, { 'Content-Type': 'text/xml; charset=UTF-8' }).end(IDENTIFY);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/oai`;
  });
  after(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const run = (cmd: string, args: string[]): Promise<void> =>
    new Promise((resolve, reject) => execFile(cmd, args, { timeout: 30_000 }, (err) => (err ? reject(err) : resolve())));
  const live: Array<{ client: string; ask: () => Promise<unknown> }> = [
    { client: 'curl', ask: () => run('curl', ['-s', '-o', '/dev/null', `${url}?verb=Identify`]) },
    { client: 'npm oai-pmh (request)', ask: () => new OaiPmh(url, { retry: false }).identify() },
    { client: 'Perl oai_pmh (HTTP::OAI, LWP)', ask: () => run('/usr/bin/oai_pmh', ['-X', 'Identify', url]) },
  ];
  for (const l of live) {
    it(`${l.client} sends the Accept of the table, so it gets XML`, async () => {
      seen.length = 0;
      await l.ask();
      expect(seen.length, 'requests seen').to.be.greaterThan(0);
      const row = CLIENTS.find((c) => c.client === l.client);
      for (const accept of seen) expect(accept).to.equal(row?.accept);
      expect(prefersHtml(seen[0])).to.equal(false);
    });
  }
});

describe('negotiation at the endpoint', () => {
  forEachProvider({}, (provider) => {
    const queries = [
      'verb=Identify',
      'verb=ListSets',
      'verb=ListMetadataFormats',
      'verb=ListRecords&metadataPrefix=oai_dc&set=math',
      'verb=ListIdentifiers&metadataPrefix=oai_dc',
      'verb=GetRecord&metadataPrefix=oai_dc&identifier=oai%3Ademo.oai-steward.org%3Arep-2024-0001',
      'verb=Nonsense',
      'verb=GetRecord&metadataPrefix=oai_dc',
    ];
    const rows = [...CLIENTS.map((c) => ({ name: c.client, accept: c.accept, gets: c.gets })), ...RULES];

    for (const row of rows) {
      it(`answers ${row.name} with ${row.gets === 'html' ? 'an HTML page' : 'the XML of a request without Accept, byte for byte'}`, async () => {
        for (const query of queries) {
          const plain = await request(provider().port, { query });
          const a = await request(provider().port, { query, headers: row.accept === undefined ? {} : { Accept: row.accept } });
          expect(a.status, query).to.equal(200);
          expect(a.headers.vary, query).to.equal('Accept, Accept-Encoding');
          if (row.gets === 'xml') {
            expect(a.headers['content-type'], query).to.equal('text/xml; charset=UTF-8');
            expect(a.body, query).to.equal(plain.body);
            checkOai(a);
          } else {
            expect(a.headers['content-type'], query).to.equal('text/html; charset=utf-8');
            expect(a.body.startsWith('<!DOCTYPE html>\n<html lang="en">'), query).to.equal(true);
            expect(a.headers['content-security-policy'], query).to.match(
              /^default-src 'none'; style-src 'sha256-[A-Za-z0-9+/]+=*'; img-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'$/,
            );
            expect(a.headers['x-content-type-options']).to.equal('nosniff');
          }
        }
      });
    }

    it("answers the bare base URL in a browser with the home page, Identify's page", async () => {
      const identify = await request(provider().port, { query: 'verb=Identify', headers: { Accept: CLIENTS[0]?.accept } });
      const bare = await request(provider().port, { headers: { Accept: CLIENTS[0]?.accept } });
      expect(bare.status).to.equal(200);
      expect(bare.headers['content-type']).to.equal('text/html; charset=utf-8');
      expect(bare.headers.vary).to.equal('Accept, Accept-Encoding');
      expect(bare.body).to.contain('<h1 dir="auto">Test repository</h1>');
      // The same page as ?verb=Identify's, but for where its "XML" link points: the XML of Identify in both.
      expect(bare.body).to.contain('href="/oai/xml?verb=Identify"');
      expect(bare.body).to.equal(identify.body);
    });

    it('answers the bare base URL without Accept: text/html with badVerb, as OAI-PMH 3.1.1 says', async () => {
      for (const accept of [undefined, '*/*', 'text/xml', 'text/html;q=0.5, text/xml']) {
        const a = await request(provider().port, { headers: accept === undefined ? {} : { Accept: accept } });
        expect(a.headers['content-type'], String(accept)).to.equal('text/xml; charset=UTF-8');
        expect(errorCodes(checkOai(a)), String(accept)).to.deep.equal(['badVerb']);
      }
    });

    it('answers a POST with XML even when the browser prefers HTML', async () => {
      const a = await request(provider().port, {
        method: 'POST',
        body: 'verb=Identify',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded', Accept: CLIENTS[0]?.accept },
      });
      expect(a.headers['content-type']).to.equal('text/xml; charset=UTF-8');
      checkOai(a);
    });

    it('answers a HEAD with the headers its GET would get, page or XML', async () => {
      for (const accept of [CLIENTS[0]?.accept, 'text/xml']) {
        const get = await request(provider().port, { query: 'verb=Identify', headers: { Accept: accept } });
        const head = await request(provider().port, { method: 'HEAD', query: 'verb=Identify', headers: { Accept: accept } });
        expect(head.headers['content-type']).to.equal(get.headers['content-type']);
        expect(head.headers.vary).to.equal(get.headers.vary);
        expect(head.body).to.equal('');
      }
    });

    it('serves {endpoint}/xml as the same XML for a browser, without varying on Accept', async () => {
      const plain = await request(provider().port, { query: 'verb=ListSets' });
      const a = await request(provider().port, { path: '/oai/xml', query: 'verb=ListSets', headers: { Accept: CLIENTS[0]?.accept } });
      expect(a.headers['content-type']).to.equal('text/xml; charset=UTF-8');
      expect(a.headers.vary).to.equal('Accept-Encoding');
      expect(a.body).to.equal(plain.body);
      checkOai(a);
    });

    it('compresses pages like XML when asked', async () => {
      const a = await request(provider().port, { query: 'verb=Identify', headers: { Accept: 'text/html', 'Accept-Encoding': 'gzip' } });
      expect(a.headers['content-encoding']).to.equal('gzip');
      expect(a.body).to.contain('<h1 dir="auto">Test repository</h1>');
    });

    it('turns the request form into the request it means with a 303', async () => {
      const a = await request(provider().port, {
        path: '/oai/form',
        query: 'verb=ListRecords&metadataPrefix=oai_dc&set=math%3Alogic&from=&until=2025-01-01&identifier=x',
      });
      expect(a.status).to.equal(303);
      expect(a.headers.location).to.equal('/oai?verb=ListRecords&metadataPrefix=oai_dc&set=math%3Alogic&until=2025-01-01');
    });
  });
});
