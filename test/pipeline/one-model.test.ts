/**
 * One model whatever the input: a record that gives its model (NDJSON,
 * DataCite JSON) reaches oai_dc with its typed fields as a record lifted from
 * XML does, and where its `dc` and its typed fields say different things the
 * rule of docs/record-format.md#dublin-core-and-the-record-fields decides.
 * The same DataCite record published by DataCite as JSON and as XML
 * (bolognese's fixtures) gets the same creators, dates, DOI, type and
 * publisher in oai_dc.
 */
import { expect } from 'chai';
import { readDataciteJson } from '../../lib/formats/datacite-json';
import { BUILT_IN_FORMATS, createFormatRegistry } from '../../lib/formats/registry';
import { createIdPolicy } from '../../lib/ids/policy';
import { jsonToItem } from '../../lib/pipeline/json-record';
import { prepareItem } from '../../lib/pipeline/prepare';
import type { RecordFields } from '../../lib/model/record';
import type { ItemInput } from '../../lib/store';
import { parseFragment, type XmlElement } from '../../lib/xml/tree';
import { TEST_NAMESPACE } from '../helpers/db';
import { fixtureText } from '../helpers/xml-fixtures';

const formats = createFormatRegistry(BUILT_IN_FORMATS);
const preparation = { formats, policy: createIdPolicy({ namespace: TEST_NAMESPACE }) };

/** Every Dublin Core element of an oai_dc record with its values, in order. */
function elements(xml: string | undefined): Record<string, string[]> {
  const root = parseFragment(xml ?? '') as XmlElement;
  const out: Record<string, string[]> = {};
  for (const c of root.children) {
    if (c.kind !== 'element') continue;
    (out[c.local] ??= []).push(c.children.map((t) => (t.kind === 'text' ? t.text : '')).join(''));
  }
  return out;
}

function oaiDcOfItem(item: ItemInput): Record<string, string[]> {
  return elements(prepareItem(item, preparation).metadata.oai_dc);
}

function dataciteJson(file: string): { internalId: string; fields: RecordFields } {
  const [result] = readDataciteJson(JSON.parse(fixtureText('readers', 'json', file)) as unknown, file);
  if (result === undefined || !('record' in result) || result.record === undefined) throw new Error(`${file} was not read`);
  return result.record;
}

describe('one model whatever the input', () => {
  it("writes a DataCite JSON record's creators, date, DOI, type and publisher into oai_dc", () => {
    const r = dataciteJson('datacite_software.json');
    expect(oaiDcOfItem({ internalId: r.internalId, fields: r.fields, metadata: {} })).to.deep.equal({
      title: ['dataone: R interface to the DataONE network of data repositories'],
      creator: ['Matthew B. Jones'],
      publisher: ['KNB Data Repository'],
      date: ['2016'],
      type: ['Software'],
      identifier: ['https://doi.org/10.5063/F1M61H5X'],
    });
  });

  it('gives the same record the same oai_dc facts whether DataCite published it as JSON or as XML', () => {
    const json = dataciteJson('datacite.json');
    const fromJson = oaiDcOfItem({ internalId: json.internalId, fields: json.fields, metadata: {} });
    const xml = fixtureText('readers', 'datacite', 'datacite.xml').replace(/^<\?xml[^>]*\?>\s*/, '');
    const lifted = prepareItem({ internalId: json.internalId, metadata: { datacite: xml } }, preparation);
    expect(lifted.liftedFrom).to.equal('datacite');
    const fromXml = elements(lifted.metadata.oai_dc);
    for (const element of ['title', 'creator', 'subject', 'publisher', 'date', 'type']) expect(fromJson[element], element).to.deep.equal(fromXml[element]);
    expect(fromJson.creator).to.deep.equal(['Fenner, Martin']);
    expect(fromJson.date).to.deep.equal(['2016-12-20', '2016']);
    expect(fromJson.type).to.deep.equal(['BlogPosting']);
    // The DOI as each file spells it (the JSON in lower case, the XML in upper case): DOIs are case-insensitive.
    expect(fromJson.identifier).to.deep.equal(['MS-49-3632-5083', 'https://doi.org/10.5438/4k3m-nyvg']);
    expect(fromXml.identifier).to.deep.equal(['MS-49-3632-5083', 'https://doi.org/10.5438/4K3M-NYVG']);
  });

  describe('an NDJSON record whose dc and typed fields say different things', () => {
    const base = { id: 'article-1', dc: { title: ['Redox-Neutral Dual Functionalization'] } };
    const cases: { name: string; record: Record<string, unknown>; element: string; want: string[] }[] = [
      {
        name: 'typed creators fill an empty dc:creator',
        record: { creators: [{ name: 'Wallentin, Carl-Johan' }] },
        element: 'creator',
        want: ['Wallentin, Carl-Johan'],
      },
      {
        name: 'a dc:creator given wins over the typed creators',
        record: { dc: { ...base.dc, creator: ['C.-J. Wallentin'] }, creators: [{ name: 'Wallentin, Carl-Johan' }] },
        element: 'creator',
        want: ['C.-J. Wallentin'],
      },
      {
        name: 'the issued date leads dc:date, the dates given follow',
        record: { dc: { ...base.dc, date: ['2016'] }, dates: { issued: '2017-08-01' } },
        element: 'date',
        want: ['2017-08-01', '2016'],
      },
      {
        name: 'an untyped dc:date of the same year does not stand in for the publication year, which leads',
        record: { dc: { ...base.dc, date: ['2017-08-01'] }, publicationYear: 2017 },
        element: 'date',
        want: ['2017', '2017-08-01'],
      },
      {
        name: 'a typed DOI joins dc:identifier as a URI',
        record: { dc: { ...base.dc, identifier: ['local-7'] }, identifiers: [{ type: 'DOI', value: '10.1002/chem.201701589' }] },
        element: 'identifier',
        want: ['local-7', 'https://doi.org/10.1002/chem.201701589'],
      },
      {
        name: 'a typed DOI dc:identifier already names in another spelling is not repeated',
        record: { dc: { ...base.dc, identifier: ['doi:10.1002/chem.201701589'] }, identifiers: [{ type: 'DOI', value: '10.1002/chem.201701589' }] },
        element: 'identifier',
        want: ['doi:10.1002/chem.201701589'],
      },
      {
        name: "the resource type's label comes first, the dc:type given after",
        record: { dc: { ...base.dc, type: ['Article'] }, resourceType: { coar: 'http://purl.org/coar/resource_type/c_6501' } },
        element: 'type',
        want: ['journal article', 'Article'],
      },
      {
        name: 'the language comes first, the dc:language given after',
        record: { dc: { ...base.dc, language: ['en'] }, language: 'eng' },
        element: 'language',
        want: ['eng', 'en'],
      },
      {
        name: 'the licence joins dc:rights',
        record: { dc: { ...base.dc, rights: ['© the authors'] }, license: 'https://creativecommons.org/licenses/by/4.0/' },
        element: 'rights',
        want: ['https://creativecommons.org/licenses/by/4.0/', '© the authors'],
      },
    ];
    for (const c of cases) {
      it(c.name, () => {
        const r = jsonToItem({ ...base, ...c.record }, formats, 'records.ndjson:1');
        if (!('item' in r)) throw new Error(JSON.stringify(r.refusals));
        expect(oaiDcOfItem(r.item)[c.element]).to.deep.equal(c.want);
      });
    }
  });
});
