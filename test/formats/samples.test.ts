import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { validate, xsdErrors } from '../helpers/xsd';

const FIXTURES = path.resolve(__dirname, '..', 'fixtures', 'formats');
const read = (...p: string[]): string => fs.readFileSync(path.join(FIXTURES, ...p), 'utf8');

describe('the published samples through the offline catalog', () => {
  for (const file of ['sample_minimal.xml', 'sample_journalarticle1.xml']) {
    it(`finds the OpenAIRE v4 sample ${file} valid`, () => {
      expect(validate(read('openaire', file), 'oai_openaire')).to.deep.equal([]);
    });
  }

  it('refuses the OpenAIRE mock-up sample, naming the attribute and its value', () => {
    const errors = validate(read('openaire', 'invalid-mocksample.xml'), 'oai_openaire');
    expect(errors).to.have.length(1);
    expect(errors[0]).to.match(/attribute 'resourceTypeGeneral'.*The value 'publication' is not an element of the set/);
  });

  for (const file of fs.readdirSync(path.join(FIXTURES, 'datacite')).sort()) {
    it(`finds the DataCite kernel-4 example ${file} valid`, () => {
      expect(validate(read('datacite', file), 'datacite')).to.deep.equal([]);
    });
  }

  it('refuses a DataCite resource without its mandatory properties', () => {
    expect(validate('<resource xmlns="http://datacite.org/schema/kernel-4"><titles><title>T</title></titles></resource>', 'datacite')).to.not.be.empty;
  });

  it('checks the kernel-4 resource inside an oai_datacite payload', () => {
    const resource = read('datacite', 'datacite-example-dataset-v4.xml').replace(/^<\?xml[^>]*>\s*/, '');
    const wrap = (payload: string): string =>
      `<oai_datacite xmlns="http://schema.datacite.org/oai/oai-1.1/"><schemaVersion>4.7</schemaVersion><datacentreSymbol>X</datacentreSymbol><payload>${payload}</payload></oai_datacite>`;
    expect(validate(wrap(resource), 'oai_datacite')).to.deep.equal([]);
    expect(validate(wrap(resource.replace(/<publicationYear>\d+<\/publicationYear>/, '<publicationYear>20xx</publicationYear>')), 'oai_datacite')[0]).to.match(
      /publicationYear/,
    );
  });

  it('refuses a MARCXML record with a malformed leader, and a MODS record with an unknown element', () => {
    expect(validate('<record xmlns="http://www.loc.gov/MARC21/slim"><leader>short</leader></record>', 'marc21')[0]).to.match(/leader/);
    expect(validate('<mods xmlns="http://www.loc.gov/mods/v3" version="3.7"><author>x</author></mods>', 'mods')[0]).to.match(/author.*not expected/);
  });

  it('still validates oai_dc responses as before, and refuses an OpenAIRE record offered as oai_dc', () => {
    const response = (metadata: string): string =>
      `<OAI-PMH xmlns="http://www.openarchives.org/OAI/2.0/"><responseDate>2026-01-01T00:00:00Z</responseDate><request>http://x.org/oai</request><GetRecord><record><header><identifier>oai:x.org:1</identifier><datestamp>2026-01-01T00:00:00Z</datestamp></header><metadata>${metadata}</metadata></record></GetRecord></OAI-PMH>`;
    const dc =
      '<oai_dc:dc xmlns:oai_dc="http://www.openarchives.org/OAI/2.0/oai_dc/" xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:title>T</dc:title></oai_dc:dc>';
    const openaire = read('openaire', 'sample_minimal.xml').replace(/^<\?xml[^>]*>\s*/, '');
    expect(xsdErrors(response(dc))).to.deep.equal([]);
    expect(xsdErrors(response(openaire), 'oai_openaire')).to.deep.equal([]);
    expect(xsdErrors(response(openaire))).to.not.be.empty;
  });
});
