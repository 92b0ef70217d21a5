import { expect } from 'chai';
import { nestedOrigin, provenanceAbout, rightsAbout, type OriginDescription } from '../../lib/pipeline/about';
import { prepareItem } from '../../lib/pipeline/prepare';
import { licences } from '../../lib/model/facts';
import { createFormatRegistry } from '../../lib/formats/registry';
import { createIdPolicy } from '../../lib/ids/policy';
import { membership } from '../../server/store/apply';
import { withProvenance } from '../../server/loader/xml-record';
import { DC_NS, OAI_DC_NS, PROVENANCE_NS, RIGHTS_NS } from '../../lib/xml/namespaces';
import { eachRow } from '../helpers/table';
import { xsdErrors } from '../helpers/xsd';

const ORIGIN: OriginDescription = {
  harvestDate: '2002-02-08T08:55:46Z',
  altered: false,
  baseURL: 'http://odd.oa.org',
  identifier: 'oai:odd.oa.org:z1x2y3',
  datestamp: '1999-08-07',
  metadataNamespace: OAI_DC_NS,
};

/** A GetRecord response carrying the given about containers, to validate them where they are served. */
function inRecord(about: readonly string[]): string {
  return (
    '<OAI-PMH xmlns="http://www.openarchives.org/OAI/2.0/"><responseDate>2002-02-08T12:00:00Z</responseDate>' +
    '<request verb="GetRecord" identifier="oai:x.org:1" metadataPrefix="oai_dc">http://x.org/oai</request><GetRecord><record>' +
    '<header><identifier>oai:x.org:1</identifier><datestamp>2002-01-01</datestamp></header>' +
    `<metadata><oai_dc:dc xmlns:oai_dc="${OAI_DC_NS}" xmlns:dc="${DC_NS}"><dc:title>t</dc:title></oai_dc:dc></metadata>` +
    about.map((a) => `<about>${a}</about>`).join('') +
    '</record></GetRecord></OAI-PMH>'
  );
}

describe('about containers', function () {
  it('writes a provenance container valid against provenance.xsd, harvestDate and datestamp as given', () => {
    const p = provenanceAbout(ORIGIN);
    expect(xsdErrors(inRecord([p.xml]))).to.deep.equal([]);
    expect(p.xml).to.contain('harvestDate="2002-02-08T08:55:46Z" altered="false"').and.contain('<datestamp>1999-08-07</datestamp>');
  });

  it('compares a provenance container without its harvestDate', () => {
    expect(provenanceAbout({ ...ORIGIN, harvestDate: '2030-01-01' }).compareAs).to.equal(provenanceAbout(ORIGIN).compareAs);
    expect(provenanceAbout({ ...ORIGIN, datestamp: '2000-01-01' }).compareAs).to.not.equal(provenanceAbout(ORIGIN).compareAs);
  });

  it('nests the originDescription a record already had, and the chain stays valid', () => {
    const earlier = provenanceAbout({ ...ORIGIN, baseURL: 'http://some.oa.org' }).xml.replace(/ xmlns:xsi="[^"]*" xsi:schemaLocation="[^"]*"/, '');
    const chain = withProvenance([{ xml: earlier }, rightsAbout('https://creativecommons.org/licenses/by/4.0/')], { ...ORIGIN, altered: true });
    expect(chain.map((a) => /^<(\w+)/.exec(a.xml)?.[1])).to.deep.equal(['provenance', 'rights']);
    expect(chain[0]?.xml).to.contain(
      `<originDescription xmlns="${PROVENANCE_NS}" harvestDate="2002-02-08T08:55:46Z" altered="false"><baseURL>http://some.oa.org</baseURL>`,
    );
    expect(xsdErrors(inRecord(chain.map((a) => a.xml)))).to.deep.equal([]);
  });

  it('finds no originDescription outside a provenance container', () => {
    expect(nestedOrigin(rightsAbout('https://example.org/l').xml)).to.equal(null);
  });

  eachRow(
    [
      [
        'a dc:rights http URI',
        { dc: { rights: ['https://creativecommons.org/licenses/by/4.0/', 'All rights reserved'] } },
        ['https://creativecommons.org/licenses/by/4.0/'],
      ],
      ['a licence field', { dc: {}, license: 'https://creativecommons.org/publicdomain/zero/1.0/' }, ['https://creativecommons.org/publicdomain/zero/1.0/']],
      [
        'the same licence twice',
        { dc: { rights: ['https://creativecommons.org/licenses/by/4.0/'] }, license: 'https://creativecommons.org/licenses/by/4.0/' },
        ['https://creativecommons.org/licenses/by/4.0/'],
      ],
      ['no licence', { dc: { title: ['x'], rights: ['Open'] } }, []],
    ] as const,
    ([what, , expected]) => `finds ${expected.length} licence(s) in ${what}`,
    ([, fields, expected]) => {
      expect(licences(fields)).to.deep.equal(expected);
    },
  );

  it('adds a valid rights container per licence, but not to a record with its own or to a deleted one', () => {
    const preparation = { formats: createFormatRegistry(), policy: createIdPolicy({ namespace: 'example.org' }), rightsInAbout: true };
    const fields = { dc: { title: ['T'], rights: ['https://creativecommons.org/licenses/by/4.0/'] } };
    const added = prepareItem({ internalId: 'a', metadata: {}, fields }, preparation);
    expect(added.about?.map((a) => a.xml)).to.deep.equal([rightsAbout('https://creativecommons.org/licenses/by/4.0/').xml]);
    expect(xsdErrors(inRecord(added.about?.map((a) => a.xml) ?? []))).to.deep.equal([]);
    const own = { xml: `<rights xmlns="${RIGHTS_NS}"><rightsReference ref="https://example.org/mine"/></rights>` };
    expect(prepareItem({ internalId: 'a', metadata: {}, fields, about: [own] }, preparation).about).to.deep.equal([own]);
    expect(prepareItem({ internalId: 'a', metadata: {}, deleted: true }, preparation).about).to.equal(undefined);
  });
});

describe('set membership rows', function () {
  it('keeps a departure for every set left, ancestors included, and none for a set still held through another', () => {
    const old = [
      { spec: 'a', departed: null },
      { spec: 'a:b', departed: null },
      { spec: 'x', departed: 100 },
    ];
    expect(membership(7, ['a:c'], old, 500)).to.deep.equal([
      ['a', 7, false, 500, null],
      ['a:c', 7, true, 500, null],
      ['a:b', 7, false, 500, 500],
      ['x', 7, false, 500, 100],
    ]);
  });

  it('makes a rejoined set live again', () => {
    expect(membership(7, ['x'], [{ spec: 'x', departed: 100 }], 500)).to.deep.equal([['x', 7, true, 500, null]]);
  });
});
