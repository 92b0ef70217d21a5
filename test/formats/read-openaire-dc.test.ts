import { expect } from 'chai';
import { oaiDc } from '../../lib/formats/oai-dc';
import { oaiOpenaire } from '../../lib/formats/oai-openaire';
import { parseFragment } from '../../lib/xml/tree';
import { fixtureRoot, metadataRoots } from '../helpers/xml-fixtures';
import { eachRow } from '../helpers/table';

// Expected values read from the samples themselves (formats/SOURCES.md of the shared schemas, test/fixtures/readers/SOURCE.md).

describe("the OpenAIRE v4 reader, on the guidelines' own samples", () => {
  it('reads the journal article sample: DataCite parts, COAR type and access right, licence, file, version', () => {
    const description = [
      'Visible‐light photoredox catalysis has been utilized in a new',
      'multicomponent reaction forming β‐functionalized δ‐diketones under mild conditions in an',
      'operationally convenient manner. Single‐electron reduction of in situ generated carboxylic',
      'acid derivatives forms acyl radicals that react further via 1,2‐acylalkylation of olefins in',
      'an intermolecular, three‐components cascade reaction, giving valuable synthetic entities',
      'from readily available starting materials. A diverse set of substrates has been used,',
      'demonstrating robust methodology with broad substrate scope.',
    ].join('\n        ');
    expect(oaiOpenaire.read!(fixtureRoot('formats', 'openaire', 'sample_journalarticle1.xml'))).to.deep.equal({
      dc: {
        title: ['Redox‐Neutral Dual Functionalization of Electron‐Deficient Alkenes'],
        subject: ['acyl radicals', 'cascade transformation', 'multicomponent reactions', 'photoredox catalysis'],
        description: [description],
        // The version, where DRIVER and OpenAIRE 3 put it.
        type: ['http://purl.org/coar/version/c_71e4c1898caa6e32'],
        // A PMID is no scheme of the model's identifiers.
        identifier: ['PMC5574022'],
        rights: ['Creative Commons Attribution‐NonCommercial'],
      },
      identifiers: [
        { type: 'URL', value: 'http://europepmc.org/articles/PMC5574022' },
        { type: 'DOI', value: '10.1002/chem.201701589' },
      ],
      creators: [
        { name: 'Pettersson, Fredrik' },
        { name: 'Bergonzini, Giulia' },
        { name: 'Cassani, Carlo' },
        { name: 'Wallentin, Carl‐Johan', orcid: '0000-0003-1983-9378' },
      ],
      resourceType: { coar: 'http://purl.org/coar/resource_type/c_6501', general: 'JournalArticle', label: 'journal article' },
      accessRights: 'open',
      license: 'http://creativecommons.org/licenses/by-nc/4.0/',
      publisher: 'John Wiley and Sons Inc.',
      dates: { accepted: '2018-02-25', available: '2019-02-25' },
      language: 'eng',
      fundingReferences: [
        {
          funderName: 'European Commission',
          awardNumber: '660668',
          awardUri: 'http://cordis.europa.eu/project/rcn/195983_en.html',
          awardTitle: 'ACT against AMR',
        },
      ],
      relatedIdentifiers: [
        { identifier: '0947-6539', type: 'ISSN', relation: 'IsPartOf' },
        { identifier: '1521-3765', type: 'EISSN', relation: 'IsPartOf' },
      ],
      // The citation fields: Chemistry – A European Journal 23(31), 7444-7447.
      host: { title: 'Chemistry', volume: '23', issue: '31', startPage: '7444', endPage: '7447' },
      files: [{ url: 'http://europepmc.org/articles/PMC5574022?pdf=render', mediaType: 'application/pdf', access: 'open' }],
    });
  });

  it('reads the minimal sample, its URN given as the resolver URL that names it', () => {
    expect(oaiOpenaire.read!(fixtureRoot('formats', 'openaire', 'sample_minimal.xml'))).to.deep.equal({
      dc: { title: ['A general approach to finite dimensional division algebras'] },
      identifiers: [{ type: 'URN', value: 'urn:nbn:se:uu:diva-160648' }],
      creators: [{ name: 'Dieterich, Ernst' }],
      resourceType: { coar: 'http://purl.org/coar/resource_type/c_93fc', general: 'Report', label: 'report' },
      accessRights: 'open',
      dates: { issued: '2011' },
      language: 'eng',
    });
  });

  it('reads the invalid mock-up too (a reader judges nothing): its COAR type by URI, the values the checks refuse as text', () => {
    const r = oaiOpenaire.read!(fixtureRoot('formats', 'openaire', 'invalid-mocksample.xml'));
    // resourceTypeGeneral="publication" is what makes it invalid; the type is read from its COAR URI.
    expect(r.resourceType).to.deep.equal({ coar: 'http://purl.org/coar/resource_type/c_18hj', general: 'Report', label: 'OBEEm6kzZk' });
    expect(r.dc.title).to.deep.equal(['UHT1VD', 'SS-0Pg4fD4QPnX']);
    // A URN that is not one, and a licence URI that is not a URL, stay text; the empty dc:language is none.
    expect(r.dc.identifier).to.include('rlUTkOW');
    expect(r.license).to.equal(undefined);
    expect(r.dc.rights).to.include.members(['s6bFCPn8RvtN9X6R30', 'O', 'F9SXD33cLZ']);
    expect(r.accessRights).to.equal('restricted');
    expect(r.language).to.equal(undefined);
  });

  eachRow(
    [
      ['an element of another format', '<resource xmlns="http://datacite.org/schema/kernel-4"/>', { dc: {} }],
      [
        'a COAR type outside the OpenAIRE list, kept as dc:type',
        '<oaire:resource xmlns:oaire="http://namespace.openaire.eu/schema/oaire/"><oaire:resourceType resourceTypeGeneral="literature" uri="http://purl.org/coar/resource_type/c_zz99">zine</oaire:resourceType></oaire:resource>',
        { dc: { type: ['zine', 'http://purl.org/coar/resource_type/c_zz99'] } },
      ],
      [
        'an embargo with its end as the Available date',
        '<oaire:resource xmlns:oaire="http://namespace.openaire.eu/schema/oaire/" xmlns:datacite="http://datacite.org/schema/kernel-4"><datacite:dates><datacite:date dateType="Accepted">2024-01-01</datacite:date><datacite:date dateType="Available">2025-06-30</datacite:date></datacite:dates><datacite:rights rightsURI="http://purl.org/coar/access_right/c_f1cf">embargoed access</datacite:rights></oaire:resource>',
        { dc: {}, accessRights: 'embargoed', dates: { accepted: '2024-01-01', embargoEnd: '2025-06-30' } },
      ],
      [
        'a Handle as the resource identifier, spelt HANDLE',
        '<oaire:resource xmlns:oaire="http://namespace.openaire.eu/schema/oaire/" xmlns:datacite="http://datacite.org/schema/kernel-4"><datacite:identifier identifierType="HANDLE">http://hdl.handle.net/1765/315</datacite:identifier></oaire:resource>',
        { dc: {}, identifiers: [{ type: 'Handle', value: '1765/315' }] },
      ],
    ] as const,
    ([what]) => `reads ${what}`,
    ([, xml, want]) => {
      expect(oaiOpenaire.read!(parseFragment(xml)!)).to.deep.equal(want);
    },
  );
});

describe('the oai_dc reader, on harvests of real providers', () => {
  it('reads a DSpace record (Erasmus, 2003): Dublin Core as given, its Handle URL also a typed Handle, its bare ISBN not guessed', () => {
    const [root] = metadataRoots('readers', 'oai_dc', 'pyoai-fake1_00004.xml');
    const r = oaiDc.read!(root!);
    expect(r.identifiers).to.deep.equal([{ type: 'Handle', value: '1765/315' }]);
    expect(r.dc.identifier).to.deep.equal(['90-9014980-5', 'http://hdl.handle.net/1765/315']);
    expect(r.dc.contributor).to.deep.equal(['Edwards, A.R.']);
    expect(r.dc.date).to.deep.equal(['2003-04-22T13:13:44Z', '2003-04-22T13:13:44Z', '2003-04-22T13:13:44Z']);
    expect(r.dc.format).to.deep.equal(['151500', 'application/pdf']);
    expect(r.dc.language).to.deep.equal(['nl']);
    expect(r.dc.subject).to.deep.equal([
      'social movement internet',
      'uses of internet',
      'effects of virtual organizations',
      'information-and communication infrastructure',
    ]);
    expect(r.dc.title).to.deep.equal(['De vrouwenbeweging online. Een onderzoek naar het gebruik van Internet door vrouwenorganisaties in Nederland .']);
    expect(r.dc.type).to.deep.equal(['Technical Report']);
    expect(r.dc.description?.[0]).to.match(/^THE WOMEN'S MOVEMENT ONLINE\. .* in the information age\.$/);
    // Dublin Core is not typed beyond identifiers: no creator, date or language fields are made up.
    expect(Object.keys(r).sort()).to.deep.equal(['dc', 'identifiers']);
  });

  it('reads a pretty-printed harvest: values without their indentation, repeats kept, stray text between elements ignored', () => {
    const records = metadataRoots('readers', 'oai_dc', 'sickle-ListRecords.xml').map((m) => oaiDc.read!(m));
    const r = records[0]!;
    expect(r.dc.title).to.deep.equal(['Sample Title']);
    expect(r.dc.creator).to.deep.equal(['John Doe', 'John Doe', 'John Doe', 'John Doe']);
    expect(r.dc.publisher).to.deep.equal(['Sample Publisher']);
    expect(r.dc.source).to.deep.equal(['Sample Source']);
    expect(r.dc.type).to.deep.equal(['info:eu-repo/semantics/article', 'doc-type:article', 'text']);
    expect(r.dc.date).to.deep.equal(['2010']);
    expect(r.dc.description?.[0]).to.match(/^Lorem ipsum dolor sit amet, consectetur adipisicing elit, sed do\n +eiusmod\n/);
    expect(r.dc.description?.[0]).to.match(/id est laborum\.$/);
    expect(r.identifiers).to.deep.equal([{ type: 'URL', value: 'http://test.example.com/publication/1585322' }]);
    expect(JSON.stringify(records)).to.not.contain('(?s)');
  });

  it('reads UTF-8 text as written', () => {
    const [root] = metadataRoots('readers', 'oai_dc', 'sickle-GetRecord_utf8test.xml');
    expect(oaiDc.read!(root!).dc.creator).to.deep.equal(['某人']);
  });

  it('reads only the fifteen elements of the Dublin Core namespace, from an oai_dc:dc root', () => {
    const xml =
      '<oai_dc:dc xmlns:oai_dc="http://www.openarchives.org/OAI/2.0/oai_dc/" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:x="urn:x"><dc:title>T</dc:title><dc:audience>A</dc:audience><x:title>X</x:title><dc:identifier>doi:10.5555/ABC</dc:identifier></oai_dc:dc>';
    expect(oaiDc.read!(parseFragment(xml)!)).to.deep.equal({
      dc: { title: ['T'], identifier: ['doi:10.5555/ABC'] },
      identifiers: [{ type: 'DOI', value: '10.5555/ABC' }],
    });
    expect(oaiDc.read!(parseFragment('<dc xmlns="http://purl.org/dc/elements/1.1/"><title>T</title></dc>')!)).to.deep.equal({ dc: {} });
  });
});
