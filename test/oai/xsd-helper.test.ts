import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { xsdErrors } from '../helpers/xsd';

describe('the XSD validation helper', () => {
  const dir = path.join(__dirname, '..', 'fixtures', 'spec-examples');
  const files = fs.readdirSync(dir).filter((f) => /^ex-sec/.test(f) && f.endsWith('.xml'));

  for (const file of files) {
    it(`accepts the published example ${file}`, () => {
      expect(xsdErrors(fs.readFileSync(path.join(dir, file), 'utf8'))).to.deep.equal([]);
    });
  }

  it('rejects a response whose protocolVersion is misspelled', () => {
    const xml = fs.readFileSync(path.join(dir, 'ex-sec4.2.xml'), 'utf8').replace(/protocolVersion/g, 'procotolVersion');
    expect(xsdErrors(xml)).to.not.be.empty;
  });

  it('rejects a response that is not well-formed', () => {
    expect(xsdErrors('<OAI-PMH><a></OAI-PMH>')[0]).to.match(/^not well-formed/);
  });
});
