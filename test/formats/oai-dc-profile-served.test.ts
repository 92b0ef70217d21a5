/**
 * oai_dc by profile as harvesters receive it: with `oaiDcProfile: openaire3`
 * in the configuration file, records loaded with `oai-steward load` are
 * served in oai_dc with the info:eu-repo terms of OpenAIRE 3.0, XSD-valid;
 * without it, oai_dc is the record's Dublin Core joined by its typed fields
 * (the resource type's label, the licence), as every record's is.
 */
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { DEMO_NAMESPACE } from '../helpers/demo-records';
import { oaiGet, texts } from '../helpers/server';
import { assertValid } from '../helpers/xsd';
import { cli, forEachCliDatabase, serving } from '../loader/helpers';

const RECORD = {
  id: 'thesis-1',
  dc: { title: ['A thesis'], creator: ['Curie, Marie'], date: ['2024'], type: ['AM'] },
  resourceType: { coar: 'http://purl.org/coar/resource_type/c_db06' },
  accessRights: 'embargoed',
  dates: { embargoEnd: '2027-06-30' },
  license: 'https://creativecommons.org/licenses/by/4.0/',
};

forEachCliDatabase((db) => {
  async function served(configText: string, load = true): Promise<string> {
    const file = path.join(db().dir, 'oai-steward.yaml');
    fs.writeFileSync(file, configText);
    if (load) {
      const records = path.join(db().dir, 'records.ndjson');
      fs.writeFileSync(records, `${JSON.stringify(RECORD)}\n`);
      const run = await cli(db(), ['load', records], { env: { OAI_CONFIG: file } });
      expect(run.code, run.stderr).to.equal(0);
    }
    return serving(db(), { OAI_CONFIG: file }, async (port) => {
      const xml = await oaiGet(port, `verb=GetRecord&metadataPrefix=oai_dc&identifier=oai:${DEMO_NAMESPACE}:thesis-1`);
      assertValid(xml);
      return xml;
    });
  }

  it('serves the info:eu-repo type, version, access level, licence and embargo end with the openaire3 profile', async () => {
    const xml = await served('seedDemo: false\noaiDcProfile: openaire3\n');
    expect(texts(xml, 'dc:type')).to.deep.equal(['info:eu-repo/semantics/doctoralThesis', 'info:eu-repo/semantics/acceptedVersion', 'doctoral thesis', 'AM']);
    expect(texts(xml, 'dc:rights')).to.deep.equal(['info:eu-repo/semantics/embargoedAccess', 'https://creativecommons.org/licenses/by/4.0/']);
    expect(texts(xml, 'dc:date')).to.deep.equal(['2024', 'info:eu-repo/date/embargoEnd/2027-06-30']);
  });

  it('serves the Dublin Core as given, joined by the typed type and licence, without a profile', async () => {
    const xml = await served('seedDemo: false\n');
    expect(texts(xml, 'dc:type')).to.deep.equal(['doctoral thesis', 'AM']);
    expect(texts(xml, 'dc:rights')).to.deep.equal(['https://creativecommons.org/licenses/by/4.0/']);
    expect(texts(xml, 'dc:date')).to.deep.equal(['2024']);
  });

  it('re-derives oai_dc with the profile when rebuild-formats runs after the profile is switched on', async () => {
    await served('seedDemo: false\n');
    const file = path.join(db().dir, 'oai-steward.yaml');
    fs.writeFileSync(file, 'seedDemo: false\noaiDcProfile: openaire3\n');
    const rebuilt = await cli(db(), ['rebuild-formats', '--json'], { env: { OAI_CONFIG: file } });
    expect(rebuilt.code, rebuilt.stderr).to.equal(0);
    expect(JSON.parse(rebuilt.stdout)).to.include({ items: 1, restamped: 1 });
    const xml = await served('seedDemo: false\noaiDcProfile: openaire3\n', false);
    expect(texts(xml, 'dc:rights')).to.deep.equal(['info:eu-repo/semantics/embargoedAccess', 'https://creativecommons.org/licenses/by/4.0/']);
  });
});
