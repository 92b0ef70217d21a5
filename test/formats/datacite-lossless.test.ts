/**
 * DataCite in, DataCite out: every kernel-4 resource no one here wrote (the
 * DataCite XML of test/fixtures/realworld/, DataCite's own published
 * examples among them) read into the model and written again, as `datacite`
 * and as the `oai_datacite` payload, holds every element and attribute it
 * was given (order and namespace prefixes aside: test/helpers/xml-embeds.ts),
 * and is valid against the published schema. An identifier is compared in
 * its scheme's normal form, the form the model keeps it in
 * (lib/model/identifiers.ts: an ISBN without hyphens, a ROR id as its URL),
 * and a language tag without regard to case (RFC 5646 section 2.1.1).
 */
import { expect } from 'chai';
import { datacite } from '../../lib/formats/datacite';
import { oaiDatacite } from '../../lib/formats/oai-datacite';
import { isNotOffered, type CrosswalkContext } from '../../lib/formats/format';
import { parseFragment, type XmlElement } from '../../lib/xml/tree';
import { dataciteCanonical as canonical, missingFrom } from '../helpers/xml-embeds';
import { validate } from '../helpers/xsd';
import { kernel4Files } from '../helpers/datacite-corpus';

const ctx: CrosswalkContext = { oaiIdentifier: 'oai:x.org:1', options: { datacentreSymbol: 'X.Y' } };

/** The written document's root, or a failure naming why the format was not offered. */
function written(result: ReturnType<NonNullable<typeof datacite.fromRecord>>): string {
  if (result === undefined || isNotOffered(result)) throw new Error(`not offered: ${JSON.stringify(result)}`);
  return result;
}

function payloadOf(xml: string): XmlElement {
  const root = parseFragment(xml)!;
  const payload = root.children.find((c): c is XmlElement => c.kind === 'element' && c.local === 'payload')!;
  return payload.children.find((c): c is XmlElement => c.kind === 'element')!;
}

describe('DataCite kernel-4 in, DataCite out', () => {
  const files = kernel4Files();

  it('finds the kernel-4 files of the corpus (every one of them is tested below)', () => {
    expect(files.map((f) => f.name)).to.include.members([
      'datacite-bolognese/datacite-example-full-v4.6.xml',
      'samples/datacite/datacite-example-full-v4.xml',
      'samples/datacite/datacite-example-multilingual-v4.xml',
      // A related Handle without its prefix (resourceTypeGeneral Instrument), an ISSN with a wrong check digit.
      '../datacite-examples/datacite-example-instrument-v4.xml',
      '../datacite-examples/datacite-example-relateditem1-v4.xml',
      '../datacite-examples/datacite-example-relateditem3-v4.xml',
    ]);
    expect(files.length).to.be.at.least(36);
  });

  for (const { name, root } of files) {
    describe(name, () => {
      const record = datacite.read!(root);

      it('is written as datacite holding every element and attribute it was given, valid against kernel-4', () => {
        const xml = written(datacite.fromRecord!(record, ctx));
        expect(missingFrom(root, parseFragment(xml)!, canonical)).to.deep.equal([]);
        expect(validate(xml, 'datacite')).to.deep.equal([]);
      });

      it('is written as an oai_datacite payload holding every element and attribute it was given, valid against oai-1.1', () => {
        const xml = written(oaiDatacite.fromRecord!(record, ctx));
        expect(missingFrom(root, payloadOf(xml), canonical)).to.deep.equal([]);
        expect(validate(xml, 'oai_datacite')).to.deep.equal([]);
      });

      it('reads back from what it wrote a model that writes the same again', () => {
        // The first writing adds the item's oai-identifier (an alternate identifier); from then on nothing changes.
        const once = datacite.read!(parseFragment(written(datacite.fromRecord!(record, ctx)))!);
        const twice = datacite.read!(parseFragment(written(datacite.fromRecord!(once, ctx)))!);
        expect(twice).to.deep.equal(once);
        expect(written(datacite.fromRecord!(once, ctx))).to.equal(written(datacite.fromRecord!(twice, ctx)));
      });
    });
  }
});

describe('DataCite kernel-4 in, DataCite out: what a Zenodo record says', () => {
  // A record built the way Zenodo's DataCite 4.x records are, with each property the trial saw lost.
  const input = `<resource xmlns="http://datacite.org/schema/kernel-4" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:schemaLocation="http://datacite.org/schema/kernel-4 http://schema.datacite.org/meta/kernel-4.5/metadata.xsd">
  <identifier identifierType="DOI">10.5281/zenodo.1234567</identifier>
  <creators>
    <creator><creatorName nameType="Organizational" xml:lang="de">Deutsches Archäologisches Institut</creatorName>
      <nameIdentifier nameIdentifierScheme="ROR" schemeURI="https://ror.org/">https://ror.org/05gq02987</nameIdentifier>
      <nameIdentifier nameIdentifierScheme="Wikidata" schemeURI="https://www.wikidata.org/wiki/">Q568144</nameIdentifier></creator>
    <creator><creatorName nameType="Personal">Curie, Marie</creatorName><givenName>Marie</givenName><familyName>Curie</familyName>
      <nameIdentifier nameIdentifierScheme="ORCID" schemeURI="https://orcid.org/">0000-0002-1825-0097</nameIdentifier>
      <nameIdentifier nameIdentifierScheme="GND" schemeURI="https://d-nb.info/gnd/">118677535</nameIdentifier>
      <affiliation affiliationIdentifier="0000000419368948" affiliationIdentifierScheme="ISNI" schemeURI="https://isni.org/isni/">Sorbonne</affiliation></creator>
  </creators>
  <titles><title xml:lang="en">Field notes</title><title xml:lang="de" titleType="TranslatedTitle">Feldnotizen</title></titles>
  <publisher xml:lang="en" publisherIdentifier="https://ror.org/02nr0ka47" publisherIdentifierScheme="ROR" schemeURI="https://ror.org/">Zenodo</publisher>
  <publicationYear>2024</publicationYear>
  <resourceType resourceTypeGeneral="Dataset">Field data</resourceType>
  <subjects><subject subjectScheme="DDC" schemeURI="https://www.oclc.org/dewey/" valueURI="https://id.loc.gov/x" classificationCode="930" xml:lang="en">Archaeology</subject></subjects>
  <dates>
    <date dateType="Issued">2024-08-01</date>
    <date dateType="Valid">2024-08-01/2025-08-01</date>
    <date dateType="Updated">2024-09-01/2024-09-30</date>
    <date dateType="Coverage">1890/1910</date>
    <date dateType="Collected" dateInformation="two seasons">2023-05/2023-09</date>
  </dates>
  <alternateIdentifiers><alternateIdentifier alternateIdentifierType="SerialNumber">DAI-2024-0017</alternateIdentifier></alternateIdentifiers>
  <relatedIdentifiers>
    <relatedIdentifier relatedIdentifierType="Handle" relationType="IsPartOf">21.11101/0000-0007-C7D1-0</relatedIdentifier>
    <relatedIdentifier relatedIdentifierType="ISSN" relationType="IsPublishedIn" resourceTypeGeneral="Journal">0341-8391</relatedIdentifier>
    <relatedIdentifier relatedIdentifierType="URL" relationType="HasMetadata" relatedMetadataScheme="DDI" schemeURI="https://ddialliance.org/" schemeType="XSD">https://example.org/ddi.xml</relatedIdentifier>
    <relatedIdentifier relatedIdentifierType="DOI" relationType="Other" relationTypeInformation="was presented at">10.5281/zenodo.7</relatedIdentifier>
  </relatedIdentifiers>
  <sizes><size>12 files</size><size>3.4 GB</size></sizes>
  <formats><format>text/csv</format></formats>
  <version>2.1</version>
  <rightsList><rights xml:lang="en" rightsURI="https://creativecommons.org/licenses/by/4.0/legalcode" rightsIdentifier="cc-by-4.0" rightsIdentifierScheme="SPDX" schemeURI="https://spdx.org/licenses/">Creative Commons Attribution 4.0 International</rights></rightsList>
  <descriptions>
    <description descriptionType="Abstract" xml:lang="en">Notes from the field.</description>
    <description descriptionType="TechnicalInfo">CSV, UTF-8.</description>
    <description descriptionType="Other" xml:lang="de">Weitere Angaben.</description>
  </descriptions>
  <fundingReferences><fundingReference><funderName>DFG</funderName><funderIdentifier funderIdentifierType="ROR" schemeURI="https://ror.org/">https://ror.org/018mejw64</funderIdentifier><awardTitle xml:lang="en">Field work</awardTitle></fundingReference></fundingReferences>
  <relatedItems>
    <relatedItem relatedItemType="Journal" relationType="IsPublishedIn">
      <relatedItemIdentifier relatedItemIdentifierType="ISSN">0341-8391</relatedItemIdentifier>
      <titles><title>Archäologischer Anzeiger</title></titles>
      <publicationYear>2024</publicationYear><volume>1</volume><firstPage>10</firstPage><lastPage>20</lastPage>
      <publisher>Reichert</publisher>
    </relatedItem>
  </relatedItems>
</resource>`;
  const root = parseFragment(input)!;
  const record = datacite.read!(root);
  const out = parseFragment(written(datacite.fromRecord!(record, ctx)))!;
  const kids = (el: XmlElement, local: string): XmlElement[] =>
    el.children.flatMap((c) => (c.kind !== 'element' ? [] : c.local === local ? [c] : kids(c, local)));

  it('keeps every element and attribute, and is valid against kernel-4', () => {
    expect(missingFrom(root, out, canonical)).to.deep.equal([]);
    expect(validate(written(datacite.fromRecord!(record, ctx)), 'datacite')).to.deep.equal([]);
  });

  it('keeps ROR, Wikidata and GND name identifiers with their scheme URIs, and an ISNI affiliation', () => {
    expect(record.creators?.[0]?.nameIdentifiers).to.deep.equal([
      { value: 'https://ror.org/05gq02987', scheme: 'ROR', schemeUri: 'https://ror.org/' },
      { value: 'Q568144', scheme: 'Wikidata', schemeUri: 'https://www.wikidata.org/wiki/' },
    ]);
    expect(record.creators?.[1]?.affiliations).to.deep.equal([
      { name: 'Sorbonne', identifier: '0000000419368948', identifierScheme: 'ISNI', schemeUri: 'https://isni.org/isni/' },
    ]);
    expect(kids(out, 'nameIdentifier').map((e) => e.attrs.get('nameIdentifierScheme'))).to.deep.equal(['ROR', 'Wikidata', 'ORCID', 'GND']);
  });

  it('keeps every date with its type, ranges as ranges, and the information of one', () => {
    expect(kids(out, 'date').map((e) => [e.attrs.get('dateType'), e.attrs.get('dateInformation')])).to.deep.equal([
      ['Issued', undefined],
      ['Valid', undefined],
      ['Updated', undefined],
      ['Coverage', undefined],
      ['Collected', 'two seasons'],
    ]);
  });

  it('writes the one rights statement with its SPDX identifier as one element', () => {
    const rights = kids(out, 'rights');
    expect(rights).to.have.length(1);
    expect(rights[0]!.attrs.get('rightsIdentifier')).to.equal('cc-by-4.0');
    expect(rights[0]!.attrs.get('rightsURI')).to.equal('https://creativecommons.org/licenses/by/4.0/legalcode');
  });

  it("writes Zenodo's access term and licence as the two statements they were, adding no third", () => {
    const rights = `<rightsList><rights rightsURI="info:eu-repo/semantics/openAccess">Open Access</rights><rights rightsURI="https://creativecommons.org/licenses/by/4.0/legalcode">Creative Commons Attribution 4.0 International</rights></rightsList>`;
    const r = datacite.read!(parseFragment(input.replace(/<rightsList>[\s\S]*<\/rightsList>/, rights))!);
    expect(r.accessRights).to.equal('open');
    const written_ = parseFragment(written(datacite.fromRecord!(r, ctx)))!;
    expect(kids(written_, 'rights').map((e) => e.attrs.get('rightsURI'))).to.deep.equal([
      'info:eu-repo/semantics/openAccess',
      'https://creativecommons.org/licenses/by/4.0/legalcode',
    ]);
  });

  it('keeps the description types TechnicalInfo and Other', () => {
    expect(kids(out, 'description').map((e) => e.attrs.get('descriptionType'))).to.deep.equal(['Abstract', 'TechnicalInfo', 'Other']);
  });

  it("writes the journal's ISSN once as a related identifier and once in the related item, with the item's year and publisher", () => {
    expect(kids(out, 'relatedIdentifier').filter((e) => e.attrs.get('relatedIdentifierType') === 'ISSN')).to.have.length(1);
    const item = kids(out, 'relatedItem');
    expect(item).to.have.length(1);
    expect(kids(item[0]!, 'relatedItemIdentifier')).to.have.length(1);
    expect(kids(item[0]!, 'publicationYear').length + kids(item[0]!, 'publisher').length).to.equal(2);
  });

  it('keeps the SerialNumber alternate identifier and the Handle it IsPartOf', () => {
    expect(record.alternateIdentifiers).to.deep.equal([{ value: 'DAI-2024-0017', type: 'SerialNumber' }]);
    expect(record.relatedIdentifiers?.find((r) => r.type === 'Handle')).to.deep.equal({
      identifier: '21.11101/0000-0007-C7D1-0',
      type: 'Handle',
      relation: 'IsPartOf',
    });
  });
});
