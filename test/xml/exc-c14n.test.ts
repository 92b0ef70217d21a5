import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { excC14n, SERVED_SCOPE } from '../../lib/xml/exc-c14n';
import { BUILT_IN_FORMATS, createFormatRegistry } from '../../lib/formats/registry';
import { createIdPolicy } from '../../lib/ids/policy';
import { jsonToItem } from '../../lib/pipeline/json-record';
import { writeFormats } from '../../lib/pipeline/prepare';
import { readOaiXml } from '../../server/loader/read-oai-xml';
import { demoSeed, DEMO_NAMESPACE } from '../helpers/demo-records';
import { ARTICLE, DATASET, NO_DOI } from '../helpers/scholarly-records';
import { xmllintExcC14n, xmllintExcC14nMany } from '../helpers/xmllint';

/** Real harvests published by others (the shared corpus, copied unchanged into test/fixtures/realworld): each record's metadata as the loader reads it. */
const CORPUS = path.resolve(__dirname, '..', 'fixtures', 'realworld');

async function corpusMetadata(): Promise<{ where: string; xml: string }[]> {
  const out: { where: string; xml: string }[] = [];
  for (const dir of ['alma', 'sickle', 'pyoai']) {
    for (const name of fs.readdirSync(path.join(CORPUS, dir)).filter((f) => f.endsWith('.xml'))) {
      const text = fs.readFileSync(path.join(CORPUS, dir, name), 'utf8');
      if (!text.includes('<metadata')) continue;
      const chunks = (async function* () {
        yield text;
      })();
      let n = 0;
      for await (const ev of readOaiXml(chunks, 'auto'))
        if (ev.kind === 'record' && ev.metadata !== undefined) out.push({ where: `${dir}/${name} #${n++}`, xml: ev.metadata });
    }
  }
  return out;
}

const DC = 'xmlns:oai_dc="http://www.openarchives.org/OAI/2.0/oai_dc/" xmlns:dc="http://purl.org/dc/elements/1.1/"';

/** Fragments that exercise each rule of the canonical form, as a record's metadata may be stored. */
const CASES: { name: string; xml: string }[] = [
  {
    name: 'a Dublin Core record with xsi from the envelope',
    xml: `<oai_dc:dc ${DC} xsi:schemaLocation="http://www.openarchives.org/OAI/2.0/oai_dc/ http://www.openarchives.org/OAI/2.0/oai_dc.xsd"><dc:title xml:lang="en">A &amp; B</dc:title><dc:creator/></oai_dc:dc>`,
  },
  { name: 'a declared but unused prefix left out', xml: '<a:x xmlns:a="urn:a" xmlns:unused="urn:u"><a:y>1</a:y></a:x>' },
  {
    name: 'attributes sorted by namespace URI, then local name',
    xml: '<x xmlns="urn:d" xmlns:b="urn:b" xmlns:a="urn:z" z="1" a:c="2" b:d="3" m="4" b:a="5"/>',
  },
  { name: 'a default namespace declared again below, and undeclared', xml: '<x xmlns="urn:d"><y xmlns="urn:d"><z xmlns="">t</z></y></x>' },
  { name: 'an unprefixed root in the envelope’s default namespace', xml: '<x><y/></x>' },
  { name: 'a root in no namespace', xml: '<x xmlns=""><y xmlns="urn:e"><z xmlns=""/></y></x>' },
  { name: 'a prefix declared on the root and used only deep down', xml: '<a:x xmlns:a="urn:a" xmlns:b="urn:b"><a:y><b:z>1</b:z><b:z>2</b:z></a:y></a:x>' },
  { name: 'a prefix bound to another namespace below', xml: '<p:x xmlns:p="urn:1"><p:y xmlns:p="urn:2"><p:z/></p:y><p:w/></p:x>' },
  { name: 'a namespace used by an attribute only', xml: '<x xmlns="urn:d" xmlns:q="urn:q"><y q:a="1"/></x>' },
  { name: 'text with characters to escape and references', xml: '<x xmlns="urn:d">&lt;a&gt; &amp; "q" \'s\' &#x41;&#66; &#xD; &#x9; ]]&gt; é 𝄞</x>' },
  { name: 'attribute values normalized and escaped', xml: '<x xmlns="urn:d" a="1\t2\n3\r\n4" b="&lt;&amp;&quot;&#9;&#10;&#13;&gt;" c=\'say "x"\'/>' },
  {
    name: 'CDATA sections, comments and processing instructions',
    xml: '<x xmlns="urn:d"><![CDATA[<b> & ]]]><!-- gone --><?target  some data?><?empty?>tail</x>',
  },
  { name: 'line ends in text normalized', xml: '<x xmlns="urn:d">a\r\nb\rc\nd</x>' },
  { name: 'white space inside tags', xml: '<x   xmlns="urn:d"\n  a = "1"   b=\'2\'  ><y\n/></x   >' },
  { name: 'xml: attributes without a declaration', xml: '<x xmlns="urn:d" xml:lang="de" xml:space="preserve"><y xml:lang="en"/></x>' },
  {
    name: 'an EDM-like RDF record',
    xml: '<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns:edm="http://www.europeana.eu/schemas/edm/" xmlns:dc="http://purl.org/dc/elements/1.1/"><edm:ProvidedCHO rdf:about="urn:x"><dc:title>T</dc:title></edm:ProvidedCHO></rdf:RDF>',
  },
  { name: 'non-ASCII names and prefixes', xml: '<été:x xmlns:été="urn:e" xmlns:b="urn:b" b:ü="1" b:a="2"><été:ß/></été:x>' },
];

describe('exclusive XML C14N of served metadata', () => {
  for (const c of CASES) {
    it(`agrees with libxml2 on ${c.name}`, () => {
      expect(excC14n(c.xml)).to.equal(xmllintExcC14n(c.xml, SERVED_SCOPE));
    });
  }

  it('writes an empty element as a start and an end tag, with the namespaces sorted, the default first', () => {
    expect(excC14n('<b:x xmlns:b="urn:b" xmlns:a="urn:a" a:k="1" xmlns="urn:d"/>')).to.equal('<b:x xmlns:a="urn:a" xmlns:b="urn:b" a:k="1"></b:x>');
  });

  it('declares the envelope’s xsi on the element that uses it', () => {
    expect(excC14n('<x xmlns="urn:d" xsi:type="t"/>')).to.equal('<x xmlns="urn:d" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:type="t"></x>');
  });

  it('gives two spellings of the same element the same bytes', () => {
    const a = excC14n(`<oai_dc:dc ${DC}><dc:title>T</dc:title></oai_dc:dc>`);
    const b = excC14n(
      `<oai_dc:dc xmlns:dc='http://purl.org/dc/elements/1.1/'  xmlns:oai_dc='http://www.openarchives.org/OAI/2.0/oai_dc/'><dc:title><![CDATA[T]]></dc:title><!-- x --></oai_dc:dc>`,
    );
    expect(a).to.equal(b);
  });

  it('agrees with libxml2 on every record of the real harvests in the shared corpus', async () => {
    const records = await corpusMetadata();
    expect(records.length).to.be.greaterThan(50);
    const theirs = xmllintExcC14nMany(
      records.map((r) => r.xml),
      SERVED_SCOPE,
    );
    records.forEach((r, i) => expect(excC14n(r.xml), r.where).to.equal(theirs[i]));
  });

  it('agrees with libxml2 on what every built-in writer writes, the log’s hash of nearly every record', () => {
    const formats = createFormatRegistry(BUILT_IN_FORMATS);
    const preparation = { formats, policy: createIdPolicy({ namespace: DEMO_NAMESPACE, mode: 'auto' }), poiInDublinCore: true };
    const models = [ARTICLE, DATASET, NO_DOI];
    for (const line of demoSeed().slice(0, 60)) {
      const r = line.deleted ? undefined : jsonToItem(line, formats, 'demo');
      if (r !== undefined && 'item' in r && r.item.fields) models.push(r.item.fields);
    }
    const written = models.flatMap((fields, i) => {
      const out = writeFormats(preparation, `r${i}`, fields, {});
      return Object.entries(out.metadata).map(([prefix, xml]) => ({ where: `${prefix} of model ${i}`, xml }));
    });
    // Every format a model is written in, MARCXML's three attributes a tag and DataCite's prefixed ones among them.
    expect([...new Set(written.map((w) => w.where.split(' ')[0]))]).to.include.members([
      'datacite',
      'marc21',
      'mods',
      'oai_dc',
      'oai_openaire',
      'qdc',
      'rioxx',
    ]);
    const theirs = xmllintExcC14nMany(
      written.map((w) => w.xml),
      SERVED_SCOPE,
    );
    written.forEach((w, i) => expect(excC14n(w.xml), w.where).to.equal(theirs[i]));
  });

  it('sorts any number of attributes, prefixed or not, as libxml2 does', () => {
    // Every order of five attributes over two namespaces and none, one seed so a failure is repeated.
    const attrs = ['z="1"', 'a:b="2"', 'c:a="3"', 'm="4"', 'a:a="5"'];
    let seed = 7;
    const fragments = Array.from({ length: 40 }, () => {
      const shuffled = [...attrs];
      for (let k = shuffled.length - 1; k > 0; k--) {
        seed = (seed * 48271) % 2147483647;
        const j = seed % (k + 1);
        [shuffled[k], shuffled[j]] = [shuffled[j] as string, shuffled[k] as string];
      }
      return `<x xmlns="urn:d" xmlns:a="urn:z" xmlns:c="urn:b"><y ${shuffled.join(' ')}>t</y><a:y ${shuffled.join(' ')}/></x>`;
    });
    const theirs = xmllintExcC14nMany(fragments, SERVED_SCOPE);
    fragments.forEach((f, i) => expect(excC14n(f), f).to.equal(theirs[i]));
    expect(new Set(theirs).size).to.equal(1);
  });

  it('gives a start tag seen before in one context its form in another, and reads a tag whose value holds ">" in full', () => {
    // The same tags, record after record, in frames that differ: a tag remembered in one is never another's.
    const fragments = [
      '<r xmlns:a="urn:1"><a:x k="v"><a:y/></a:x></r>',
      '<r xmlns:a="urn:2"><a:x k="v"><a:y/></a:x></r>',
      '<r xmlns:a="urn:1"><s xmlns:a="urn:3"><a:x k="v"><a:y/></a:x></s><a:x k="v"><a:y/></a:x></r>',
      '<r xmlns:a="urn:1"><a:x k="v" xmlns:b="urn:b" b:z="1"><a:y/></a:x></r>',
      // The first ">" of these tags is inside a value: the tags differ after it.
      '<r><x v=">" w="1"/><x v=">" w="2"/><x v=\'>\' w="3"/><x v=\'>\' w="4"/><x v=\'"\' w="5">"</x></r>',
      '<r><x v="a>b" w="1"><y/></x><x v="a>b" w="2" xmlns:c="urn:c" c:q="3"><y/></x></r>',
    ];
    const theirs = xmllintExcC14nMany(fragments, SERVED_SCOPE);
    for (let round = 0; round < 3; round++) fragments.forEach((f, i) => expect(excC14n(f), `${f} (round ${round})`).to.equal(theirs[i]));
  });

  it('gives the same forms after more distinct tags than it remembers', () => {
    const fragments = [`<oai_dc:dc ${DC}><dc:title xml:lang="en">T</dc:title><dc:creator>C</dc:creator></oai_dc:dc>`, ...CASES.map((c) => c.xml)];
    const before = fragments.map((f) => excC14n(f));
    // Ten thousand and more tags that differ only in a value: everything remembered is forgotten on the way.
    for (let k = 0; k < 12_000; k++) excC14n(`<x xmlns="urn:d"><y n="${k}"><z/></y></x>`);
    expect(fragments.map((f) => excC14n(f))).to.deep.equal(before);
    expect(excC14n('<x xmlns="urn:d"><y n="11999"><z/></y></x>')).to.equal('<x xmlns="urn:d"><y n="11999"><z></z></y></x>');
  });

  it('ends, whatever a record edited behind the write path was cut to', async () => {
    const [record] = await corpusMetadata();
    const xml = (record as { xml: string }).xml;
    for (let cut = 0; cut <= xml.length; cut++) expect(excC14n(xml.slice(0, cut))).to.be.a('string');
  });
});
