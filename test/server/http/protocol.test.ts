/**
 * The requirements checklist (shared/specs/oai-pmh-2.0-requirements.md), row
 * by row, against a real server over a real store: every answer is HTTP 200,
 * text/xml and valid against OAI-PMH.xsd with everything it embeds, and GET
 * and POST answer byte for byte the same.
 */
import { expect } from 'chai';
import { forEachProvider, oaiGet, oaiPost, errorCodes, requestAttributes, texts, BASE_URL, request, checkOai } from '../../helpers/server';
import { demoRecords } from '../../helpers/demo-records';
import { toRequestArgument } from '../../../lib/ids/oai-identifier';
import { OAI_DC_NS } from '../../../lib/xml/namespaces';

const demo = demoRecords();
const live = demo.find((d) => !d.deleted && d.internalId === 'rep-2024-0001') ?? demo.find((d) => !d.deleted)!;
const deleted = demo.find((d) => d.deleted && d.internalId === 'report 12')!;
const escaped = demo.find((d) => d.internalId === 'demo:A-B.C_D%3AE')!;
const arg = (identifier: string): string => toRequestArgument(identifier);

interface Row {
  name: string;
  query: string;
  /** The verb element expected, or the error codes in order. */
  expect: { verb: string } | { errors: string[] };
  /** Whether `request` carries the arguments (false on badVerb/badArgument). */
  echo: boolean;
  check?: (xml: string) => void;
}

const rows: Row[] = [
  { name: 'Identify answers', query: 'verb=Identify', expect: { verb: 'Identify' }, echo: true },
  { name: 'Identify with an argument is badArgument', query: 'verb=Identify&metadataPrefix=oai_dc', expect: { errors: ['badArgument'] }, echo: false },
  { name: 'no verb is badVerb', query: '', expect: { errors: ['badVerb'] }, echo: false },
  { name: 'an illegal verb is badVerb', query: 'verb=Nonsense', expect: { errors: ['badVerb'] }, echo: false },
  { name: 'a repeated verb is badVerb', query: 'verb=Identify&verb=ListSets', expect: { errors: ['badVerb'] }, echo: false },
  {
    name: 'a repeated argument is badArgument',
    query: 'verb=ListRecords&metadataPrefix=oai_dc&metadataPrefix=oai_dc',
    expect: { errors: ['badArgument'] },
    echo: false,
  },
  { name: 'an unknown argument is badArgument', query: 'verb=ListSets&color=red', expect: { errors: ['badArgument'] }, echo: false },
  { name: 'an empty argument is badArgument', query: 'verb=ListRecords&metadataPrefix=', expect: { errors: ['badArgument'] }, echo: false },
  {
    name: 'a malformed percent-escape is badArgument',
    query: 'verb=GetRecord&identifier=%zz&metadataPrefix=oai_dc',
    expect: { errors: ['badArgument'] },
    echo: false,
  },
  {
    name: 'bytes that are not UTF-8 are badArgument',
    query: 'verb=GetRecord&identifier=%FF%FE&metadataPrefix=oai_dc',
    expect: { errors: ['badArgument'] },
    echo: false,
  },
  {
    name: 'several argument errors are reported together',
    query: 'verb=ListRecords&from=yesterday&foo=1',
    expect: { errors: ['badArgument', 'badArgument', 'badArgument'] },
    echo: false,
  },
  // GetRecord (4.1)
  {
    name: 'GetRecord returns a record with oai_dc metadata',
    query: `verb=GetRecord&identifier=${arg(live.identifier)}&metadataPrefix=oai_dc`,
    expect: { verb: 'GetRecord' },
    echo: true,
    check: (x) => {
      expect(texts(x, 'identifier')).to.deep.equal([live.identifier]);
      expect(x).to.contain('<oai_dc:dc');
    },
  },
  {
    name: 'GetRecord of an escaped identifier (doubly encoded, section 2.5) finds it',
    query: `verb=GetRecord&identifier=${arg(escaped.identifier)}&metadataPrefix=oai_dc`,
    expect: { verb: 'GetRecord' },
    echo: true,
    check: (x) => expect(texts(x, 'identifier')).to.deep.equal([escaped.identifier]),
  },
  {
    name: 'GetRecord of a deleted item answers a deleted header without metadata',
    query: `verb=GetRecord&identifier=${arg(deleted.identifier)}&metadataPrefix=oai_dc`,
    expect: { verb: 'GetRecord' },
    echo: true,
    check: (x) => {
      expect(x).to.contain('<header status="deleted">');
      expect(x).to.not.contain('<metadata>');
    },
  },
  {
    name: 'GetRecord of an unknown identifier is idDoesNotExist',
    query: 'verb=GetRecord&identifier=oai%3Ademo.oai-steward.org%3Anope&metadataPrefix=oai_dc',
    expect: { errors: ['idDoesNotExist'] },
    echo: true,
  },
  {
    name: 'GetRecord of an identifier in another case is idDoesNotExist (identity is exact)',
    query: `verb=GetRecord&identifier=${arg(live.identifier.toUpperCase().replace('OAI:', 'oai:'))}&metadataPrefix=oai_dc`,
    expect: { errors: ['idDoesNotExist'] },
    echo: true,
  },
  {
    name: 'GetRecord of an identifier that is not even a URI is idDoesNotExist',
    query: 'verb=GetRecord&identifier=%3Cscript%3E%22%26&metadataPrefix=oai_dc',
    expect: { errors: ['idDoesNotExist'] },
    echo: true,
    check: (x) => expect(requestAttributes(x).identifier).to.equal('<script>"&'),
  },
  {
    name: 'GetRecord in an unknown format is cannotDisseminateFormat',
    query: `verb=GetRecord&identifier=${arg(live.identifier)}&metadataPrefix=no_such_format`,
    expect: { errors: ['cannotDisseminateFormat'] },
    echo: true,
  },
  {
    name: 'GetRecord of an unknown id in an unknown format reports both',
    query: 'verb=GetRecord&identifier=oai%3Ax.org%3Ay&metadataPrefix=no_such_format',
    expect: { errors: ['idDoesNotExist', 'cannotDisseminateFormat'] },
    echo: true,
  },
  {
    name: 'GetRecord without metadataPrefix is badArgument',
    query: `verb=GetRecord&identifier=${arg(live.identifier)}`,
    expect: { errors: ['badArgument'] },
    echo: false,
  },
  {
    name: 'GetRecord with a syntactically illegal metadataPrefix is badArgument',
    query: `verb=GetRecord&identifier=${arg(live.identifier)}&metadataPrefix=a%20b`,
    expect: { errors: ['badArgument'] },
    echo: false,
  },
  // ListMetadataFormats (4.4)
  {
    name: 'ListMetadataFormats lists the repository formats',
    query: 'verb=ListMetadataFormats',
    expect: { verb: 'ListMetadataFormats' },
    echo: true,
    check: (x) => expect(texts(x, 'metadataPrefix')).to.include('oai_dc'),
  },
  {
    name: 'ListMetadataFormats of an item lists its formats',
    query: `verb=ListMetadataFormats&identifier=${arg(live.identifier)}`,
    expect: { verb: 'ListMetadataFormats' },
    echo: true,
    check: (x) => expect(texts(x, 'metadataNamespace')).to.include(OAI_DC_NS),
  },
  {
    name: 'ListMetadataFormats of a deleted item still lists oai_dc',
    query: `verb=ListMetadataFormats&identifier=${arg(deleted.identifier)}`,
    expect: { verb: 'ListMetadataFormats' },
    echo: true,
  },
  {
    name: 'ListMetadataFormats of an unknown item is idDoesNotExist',
    query: 'verb=ListMetadataFormats&identifier=oai%3Ademo.oai-steward.org%3Anope',
    expect: { errors: ['idDoesNotExist'] },
    echo: true,
  },
  {
    name: 'ListMetadataFormats with a resumptionToken is badArgument',
    query: 'verb=ListMetadataFormats&resumptionToken=x',
    expect: { errors: ['badArgument'] },
    echo: false,
  },
  // ListSets (4.6)
  {
    name: 'ListSets lists sets',
    query: 'verb=ListSets',
    expect: { verb: 'ListSets' },
    echo: true,
    check: (x) => expect(texts(x, 'setSpec')).to.include.members(['physics', 'physics:hep', 'physics:hep:theory']),
  },
  {
    name: 'ListSets with a bad token is badResumptionToken',
    query: 'verb=ListSets&resumptionToken=garbage',
    expect: { errors: ['badResumptionToken'] },
    echo: true,
  },
  // ListIdentifiers / ListRecords (4.3, 4.5)
  {
    name: 'ListIdentifiers pages with a token',
    query: 'verb=ListIdentifiers&metadataPrefix=oai_dc',
    expect: { verb: 'ListIdentifiers' },
    echo: true,
    check: (x) => expect(x).to.match(/<resumptionToken expirationDate="[^"]+" completeListSize="285" cursor="0">1\./),
  },
  { name: 'ListRecords pages with a token', query: 'verb=ListRecords&metadataPrefix=oai_dc', expect: { verb: 'ListRecords' }, echo: true },
  { name: 'ListRecords without metadataPrefix is badArgument', query: 'verb=ListRecords', expect: { errors: ['badArgument'] }, echo: false },
  {
    name: 'ListRecords in an unknown format is cannotDisseminateFormat',
    query: 'verb=ListRecords&metadataPrefix=no_such_format',
    expect: { errors: ['cannotDisseminateFormat'] },
    echo: true,
  },
  {
    name: 'ListIdentifiers of an empty range is noRecordsMatch',
    query: 'verb=ListIdentifiers&metadataPrefix=oai_dc&until=2000-01-01',
    expect: { errors: ['noRecordsMatch'] },
    echo: true,
  },
  {
    name: 'ListIdentifiers of an unknown set is noRecordsMatch',
    query: 'verb=ListIdentifiers&metadataPrefix=oai_dc&set=nosuchset',
    expect: { errors: ['noRecordsMatch'] },
    echo: true,
  },
  {
    name: 'ListRecords from a date in the future is noRecordsMatch',
    query: 'verb=ListRecords&metadataPrefix=oai_dc&from=2999-01-01',
    expect: { errors: ['noRecordsMatch'] },
    echo: true,
  },
  {
    name: 'ListRecords with mixed granularities is badArgument',
    query: 'verb=ListRecords&metadataPrefix=oai_dc&from=2024-12-27&until=2024-12-28T00:00:00Z',
    expect: { errors: ['badArgument'] },
    echo: false,
  },
  {
    name: 'ListRecords with from after until is badArgument',
    query: 'verb=ListRecords&metadataPrefix=oai_dc&from=2024-12-28&until=2024-12-27',
    expect: { errors: ['badArgument'] },
    echo: false,
  },
  {
    name: 'ListRecords with an impossible date is badArgument',
    query: 'verb=ListRecords&metadataPrefix=oai_dc&from=2024-02-30',
    expect: { errors: ['badArgument'] },
    echo: false,
  },
  {
    name: 'ListRecords with a time zone offset is badArgument',
    query: 'verb=ListRecords&metadataPrefix=oai_dc&from=2024-12-27T00:00:00%2B01:00',
    expect: { errors: ['badArgument'] },
    echo: false,
  },
  {
    name: 'ListRecords with fractional seconds is badArgument',
    query: 'verb=ListRecords&metadataPrefix=oai_dc&from=2024-12-27T00:00:00.0Z',
    expect: { errors: ['badArgument'] },
    echo: false,
  },
  {
    name: 'ListRecords with a resumptionToken and another argument is badArgument',
    query: 'verb=ListRecords&metadataPrefix=oai_dc&resumptionToken=x',
    expect: { errors: ['badArgument'] },
    echo: false,
  },
  {
    name: 'ListRecords with a garbage token is badResumptionToken',
    query: 'verb=ListRecords&resumptionToken=garbage',
    expect: { errors: ['badResumptionToken'] },
    echo: true,
  },
  {
    name: 'ListRecords with an illegal set spec is badArgument',
    query: 'verb=ListRecords&metadataPrefix=oai_dc&set=a%20b',
    expect: { errors: ['badArgument'] },
    echo: false,
  },
  {
    name: 'a day-granularity range is inclusive at both ends',
    query: 'verb=ListIdentifiers&metadataPrefix=oai_dc&from=2024-12-29&until=2024-12-29',
    expect: { verb: 'ListIdentifiers' },
    echo: true,
    check: (x) => {
      const ds = texts(x, 'datestamp');
      expect(ds).to.include('2024-12-29T23:59:59Z');
      expect(ds.every((d) => d.startsWith('2024-12-29'))).to.equal(true);
    },
  },
  {
    name: 'a second-granularity range is inclusive at both ends',
    query: 'verb=ListIdentifiers&metadataPrefix=oai_dc&from=2024-12-29T23:59:59Z&until=2024-12-30T00:00:00Z',
    expect: { verb: 'ListIdentifiers' },
    echo: true,
    check: (x) => expect(texts(x, 'datestamp')).to.deep.equal(['2024-12-29T23:59:59Z', '2024-12-30T00:00:00Z']),
  },
  {
    name: 'a set harvest includes the items of its descendants',
    query: 'verb=ListIdentifiers&metadataPrefix=oai_dc&set=physics',
    expect: { verb: 'ListIdentifiers' },
    echo: true,
    check: (x) => {
      const specs = texts(x, 'setSpec');
      expect(specs.some((s) => s.startsWith('physics:'))).to.equal(true);
    },
  },
];

describe('the OAI-PMH endpoint', function () {
  forEachProvider({}, (provider) => {
    for (const row of rows) {
      it(`${row.name} (GET and POST answer identically)`, async () => {
        const p = provider();
        const xml = await oaiGet(p.port, row.query);
        const posted = await oaiPost(p.port, row.query);
        expect(posted).to.equal(xml);
        if ('verb' in row.expect) {
          expect(errorCodes(xml), xml.slice(0, 800)).to.deep.equal([]);
          expect(xml).to.match(new RegExp(`<${row.expect.verb}>`));
        } else {
          expect(errorCodes(xml)).to.deep.equal(row.expect.errors);
        }
        const attrs = requestAttributes(xml);
        if (row.echo) {
          const sent = Object.fromEntries(
            row.query
              .split('&')
              .filter(Boolean)
              .map((kv) => kv.split('=').map(decodeURIComponent)),
          );
          expect(attrs).to.deep.equal(sent);
        } else {
          expect(attrs).to.deep.equal({});
        }
        expect(texts(xml, 'request')).to.deep.equal([BASE_URL]);
        row.check?.(xml);
      });
    }

    it('puts responseDate first, then request, in UTC with seconds', async () => {
      const xml = await oaiGet(provider().port, 'verb=Identify');
      expect(xml).to.match(/<OAI-PMH [^>]+>\s*<responseDate>\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ<\/responseDate>\s*<request/);
    });

    it('describes the repository in Identify with an oai-identifier container naming a real item', async () => {
      const xml = await oaiGet(provider().port, 'verb=Identify');
      expect(texts(xml, 'protocolVersion')).to.deep.equal(['2.0']);
      expect(texts(xml, 'deletedRecord')).to.deep.equal(['persistent']);
      expect(texts(xml, 'granularity')).to.deep.equal(['YYYY-MM-DDThh:mm:ssZ']);
      expect(texts(xml, 'compression')).to.deep.equal(['gzip', 'deflate']);
      expect(texts(xml, 'earliestDatestamp')).to.deep.equal([demo.map((d) => d.datestamp).sort()[0]]);
      expect(texts(xml, 'repositoryIdentifier')).to.deep.equal(['demo.oai-steward.org']);
      const sample = texts(xml, 'sampleIdentifier')[0] as string;
      expect(demo.map((d) => d.identifier)).to.include(sample);
    });

    it('escapes identifiers with XML metacharacters in headers', async () => {
      const lt = demo.find((d) => d.internalId === '<script>')!;
      const xml = await oaiGet(provider().port, `verb=GetRecord&identifier=${arg(lt.identifier)}&metadataPrefix=oai_dc`);
      expect(texts(xml, 'identifier')).to.deep.equal([lt.identifier]);
    });

    it('escapes metadata text that looks like markup or closes a CDATA section', async () => {
      const p = provider();
      const rec = demo.find((d) => d.internalId === 'rep-2024-0085')!;
      const xml = await oaiGet(p.port, `verb=GetRecord&identifier=${arg(rec.identifier)}&metadataPrefix=oai_dc`);
      expect(xml).to.contain(']]&gt;');
      expect(xml).to.not.contain('<b>not markup</b>');
    });

    it('exposes the POI of each record as a dc:identifier', async () => {
      const xml = await oaiGet(provider().port, `verb=GetRecord&identifier=${arg(live.identifier)}&metadataPrefix=oai_dc`);
      expect(texts(xml, 'dc:identifier')).to.include(`http://purl.org/poi/demo.oai-steward.org/${live.identifier.slice('oai:demo.oai-steward.org:'.length)}`);
    });

    for (const coding of ['gzip', 'deflate'] as const) {
      it(`compresses with ${coding} when the harvester accepts it`, async () => {
        const a = await request(provider().port, { query: 'verb=ListRecords&metadataPrefix=oai_dc', headers: { 'Accept-Encoding': `${coding}, identity` } });
        expect(a.headers['content-encoding']).to.equal(coding);
        checkOai(a);
      });
    }

    it('sends identity when no Accept-Encoding is given', async () => {
      const a = await request(provider().port, { query: 'verb=Identify' });
      expect(a.headers['content-encoding']).to.equal(undefined);
    });

    it('sends identity when the harvester refuses every offered coding', async () => {
      const a = await request(provider().port, { query: 'verb=Identify', headers: { 'Accept-Encoding': 'br, gzip;q=0' } });
      expect(a.headers['content-encoding']).to.equal(undefined);
      checkOai(a);
    });

    it('refuses a POST body that is not form-encoded with badArgument', async () => {
      const a = await request(provider().port, { method: 'POST', body: '{"verb":"Identify"}', headers: { 'Content-Type': 'application/json' } });
      expect(errorCodes(checkOai(a))).to.deep.equal(['badArgument']);
    });

    it('accepts a POST with arguments in the query string and an empty body', async () => {
      const a = await request(provider().port, { method: 'POST', query: 'verb=Identify' });
      expect(checkOai(a)).to.contain('<Identify>');
    });

    it('answers other HTTP methods with 405', async () => {
      const a = await request(provider().port, { method: 'DELETE', query: 'verb=Identify' });
      expect(a.status).to.equal(405);
    });

    it('answers XML without a stylesheet processing instruction, varying on Accept', async () => {
      const a = await request(provider().port, { query: 'verb=Identify' });
      expect(checkOai(a)).to.not.contain('<?xml-stylesheet');
      expect(a.headers.vary).to.equal('Accept, Accept-Encoding');
    });

    it('answers unknown paths with a bare 404', async () => {
      const a = await request(provider().port, { path: '/../../etc/passwd' });
      expect(a.status).to.equal(404);
      expect(a.body).to.not.match(/at .*\.(ts|js):\d+/);
    });
  });
});
