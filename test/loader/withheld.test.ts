/**
 * `oai-steward load` (the CLI as a process, on each test database) of CERN
 * CDS's OAI-PMH responses as published, whose MARCXML carries indicator `C`
 * in field 690, which LoC's MARC21slim.xsd refuses and no MARC reader here
 * reads: each record is kept, served in every format written from its model
 * (oai_dc; marc21 too where it is offered), never in the MARCXML it gave,
 * which is stored beside the model; the run's warnings name the record and
 * the schema's reason, and a reload or `rebuild-formats` changes nothing.
 */
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { createIdPolicy } from '../../lib/ids/policy';
import { toRequestArgument } from '../../lib/ids/oai-identifier';
import { DEMO_NAMESPACE } from '../helpers/demo-records';
import { checkOai, errorCodes, request, texts } from '../helpers/server';
import { assertValid } from '../helpers/xsd';
import { cli, datestamps, forEachCliDatabase, ROOT, serving, summaryOf } from './helpers';

const CDS = path.join(ROOT, 'test', 'fixtures', 'readers', 'marcxml');
const MARC_XSD = path.join(ROOT, 'schemas', 'marcxml', 'MARC21slim.xsd');
const policy = createIdPolicy({ namespace: DEMO_NAMESPACE, mode: 'auto' });
const idOf = (internalId: string): string => toRequestArgument(policy.map(internalId).identifier);
const CDS_ID = 'oai:cds.cern.ch:2653609';

forEachCliDatabase((db) => {
  function config(text: string): NodeJS.ProcessEnv {
    const file = path.join(db().dir, 'oai-steward.yaml');
    fs.writeFileSync(file, text);
    return { OAI_CONFIG: file };
  }
  const withMarcxml = (): NodeJS.ProcessEnv =>
    config(
      [
        'seedDemo: false',
        'formats:',
        '  - prefix: oai_dc',
        '  - prefix: marcxml',
        '    namespace: http://www.loc.gov/MARC21/slim',
        '    schema: http://www.loc.gov/standards/marcxml/schema/MARC21slim.xsd',
        `    xsd: ${MARC_XSD}`,
        '',
      ].join('\n'),
    );

  /** The prefixes the store holds a record in, per internal id, and the withheld XML kept beside each model. */
  async function stored(): Promise<{ records: string[]; withheld: Map<string, { prefix: string; xml: string; reason: string }[]> }> {
    const k = db().knex();
    const records = (await k('records as r')
      .join('items as i', 'i.pk', 'r.item_pk')
      .select('i.internal_id', 'r.prefix')
      .orderBy(['i.internal_id', 'r.prefix'])) as {
      internal_id: string;
      prefix: string;
    }[];
    const fields = (await k('record_fields as f').join('items as i', 'i.pk', 'f.item_pk').select('i.internal_id', 'f.withheld')) as {
      internal_id: string;
      withheld: string | null;
    }[];
    return {
      records: records.map((r) => `${r.internal_id} ${r.prefix}`),
      withheld: new Map(
        fields.map((f) => [f.internal_id, f.withheld === null ? [] : (JSON.parse(f.withheld) as { prefix: string; xml: string; reason: string }[])]),
      ),
    };
  }

  it("keeps CDS's record given under marcxml: served in oai_dc, its MARCXML stored but not served, the warning naming record and reason", async () => {
    const env = withMarcxml();
    const run = await cli(db(), ['load', '--json', path.join(CDS, 'cds-single.xml')], { env });
    expect(run.code, run.stderr).to.equal(0);
    expect(summaryOf(run)).to.include({ inserted: 1, refused: 0, committed: true });
    expect(run.stderr).to.match(
      /warning: record "oai:cds\.cern\.ch:2653609" \(.*cds-single\.xml:5 \(record 1\)\): its marcxml is not valid against that format's schema/,
    );
    expect(run.stderr).to.include("attribute 'ind1': [facet 'pattern'] The value 'C' is not accepted by the pattern '[\\da-z ]{1}'");
    expect(run.stderr).to.include('the XML it gave is kept but not served, and the record is served in oai_dc, written from the model read from it');

    const { records, withheld } = await stored();
    expect(records).to.deep.equal([`${CDS_ID} oai_dc`]);
    const kept = withheld.get(CDS_ID) ?? [];
    expect(kept.map((w) => w.prefix)).to.deep.equal(['marcxml']);
    expect(kept[0]?.xml)
      .to.match(/^<marc:record /)
      .and.include('<marc:datafield tag="690" ind1="C" ind2=" ">');
    expect(kept[0]?.reason).to.include("The value 'C' is not accepted");

    // The run's record keeps the warning, where `sources` and `stats` read it.
    const [row] = (await db().knex()('runs').where({ kind: 'load' }).select('warnings')) as { warnings: string }[];
    expect((JSON.parse(row?.warnings ?? '[]') as string[]).some((w) => w.includes(`record "${CDS_ID}"`) && w.includes('ind1'))).to.equal(true);

    await serving(db(), env, async (port) => {
      const dc = checkOai(await request(port, { query: `verb=GetRecord&metadataPrefix=oai_dc&identifier=${idOf(CDS_ID)}` }));
      assertValid(dc);
      expect(texts(dc, 'dc:title')).to.deep.equal(['Photon and jet probes of small collision systems with ATLAS']);
      expect(texts(dc, 'dc:creator')).to.deep.equal(['The ATLAS collaboration', 'Spousta, Martin']);
      expect(texts(dc, 'dc:date')).to.deep.equal(['2019']);
      const formats = checkOai(await request(port, { query: `verb=ListMetadataFormats&identifier=${idOf(CDS_ID)}` }));
      expect(texts(formats, 'metadataPrefix')).to.deep.equal(['oai_dc']);
      const marc = checkOai(await request(port, { query: `verb=GetRecord&metadataPrefix=marcxml&identifier=${idOf(CDS_ID)}` }));
      expect(errorCodes(marc)).to.deep.equal(['cannotDisseminateFormat']);
      const list = checkOai(await request(port, { query: 'verb=ListRecords&metadataPrefix=marcxml' }));
      expect(errorCodes(list)).to.deep.equal(['noRecordsMatch']);
    });
  });

  it('changes nothing when the same file is loaded again or the formats are rebuilt', async () => {
    const env = withMarcxml();
    expect((await cli(db(), ['load', path.join(CDS, 'cds-single.xml')], { env })).code).to.equal(0);
    const before = await datestamps(db().knex());
    const again = await cli(db(), ['load', '--json', path.join(CDS, 'cds-single.xml')], { env });
    expect(again.code, again.stderr).to.equal(0);
    expect(summaryOf(again)).to.include({ unchanged: 1, inserted: 0, updated: 0 });
    const rebuilt = await cli(db(), ['rebuild-formats'], { env });
    expect(rebuilt.code, rebuilt.stderr).to.equal(0);
    expect(rebuilt.stdout).to.include('rebuilt the formats of 1 items; 0 changed');
    expect(await datestamps(db().knex())).to.deep.equal(before);
    expect((await stored()).withheld.get(CDS_ID)?.map((w) => w.prefix)).to.deep.equal(['marcxml']);
    // doctor finds the item whole: its oai_dc there, its records' digests those written.
    const doctor = JSON.parse((await cli(db(), ['doctor', '--json'], { env })).stdout) as { findings: { check: string; severity: string; message: string }[] };
    expect(doctor.findings.filter((f) => f.severity === 'problem')).to.deep.equal([]);
    expect(doctor.findings.filter((f) => f.check === 'oai_dc').map((f) => f.severity)).to.deep.equal(['ok']);
  });

  it("serves CDS's ListRecords page in marc21 written from the model where marc21 is offered, never the MARCXML given", async () => {
    const env = config('seedDemo: false\n');
    const run = await cli(db(), ['load', '--json', path.join(CDS, 'cds-cerncds-hep-th.xml')], { env });
    expect(run.code, run.stderr).to.equal(0);
    expect(summaryOf(run)).to.include({ inserted: 2, refused: 0 });
    for (const id of ['oai:cds.cern.ch:329074', 'oai:cds.cern.ch:428218']) expect(run.stderr).to.include(`record "${id}"`);
    const { withheld } = await stored();
    expect(withheld.get('oai:cds.cern.ch:329074')?.map((w) => w.prefix)).to.deep.equal(['marc21']);
    await serving(db(), env, async (port) => {
      const marc = checkOai(await request(port, { query: `verb=GetRecord&metadataPrefix=marc21&identifier=${idOf('oai:cds.cern.ch:329074')}` }));
      assertValid(marc);
      expect(marc).to.not.include('ind1="C"');
      expect(marc).to.include('<subfield code="a">Lectures on Heterotic-Type I Duality</subfield>');
      const dc = checkOai(await request(port, { query: `verb=GetRecord&metadataPrefix=oai_dc&identifier=${idOf('oai:cds.cern.ch:428218')}` }));
      expect(texts(dc, 'dc:title')).to.deep.equal(['On type II NS - five-branes in the presence of an R R field']);
      expect(texts(dc, 'dc:creator')).to.deep.equal(['Alishahiha, Mohsen']);
    });
  });
});
