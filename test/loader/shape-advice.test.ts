/**
 * The advice for an XML file the loader cannot read as records names the
 * shape it saw: a bare OAI-PMH `<record>` cut out of its response (here, the
 * record of sickle's saved GetRecord, as a person saves it from a browser),
 * a list element without its response, a root in no namespace; a root of a
 * namespace no format has is told to declare the format, naming the root.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { createFormatRegistry } from '../../lib/formats/registry';
import { createIdPolicy } from '../../lib/ids/policy';
import type { Refusal } from '../../lib/model/refusal';
import { openInput } from '../../server/loader/input';
import { readInput } from '../../server/loader/read-inputs';
import { shapeAdvice } from '../../server/loader/shape-advice';
import { TEST_NAMESPACE } from '../helpers/db';
import { ROOT } from './helpers';

const OAI = 'http://www.openarchives.org/OAI/2.0/';
const GET_RECORD = path.join(ROOT, 'test', 'fixtures', 'realworld', 'sickle', 'GetRecord.xml');

/** The refusals of loading one file, read as the loader reads it. */
async function refusalsOf(file: string): Promise<Refusal[]> {
  const counter = { bytesRead: 0 };
  const out: Refusal[] = [];
  const input = await openInput(file, process.stdin, counter);
  for await (const ev of readInput(input, { policy: createIdPolicy({ namespace: TEST_NAMESPACE }), formats: createFormatRegistry(), counter })) {
    if (ev.kind === 'record' && 'refusals' in ev.result) out.push(...ev.result.refusals);
    if (ev.kind === 'fault') out.push(ev.refusal);
  }
  return out;
}

describe('the advice for a file of a shape the loader does not read', () => {
  let dir: string;
  before(() => (dir = fs.mkdtempSync(path.join(os.tmpdir(), 'shape-'))));
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('names a bare OAI-PMH record cut out of its response, and says to keep its response or its metadata alone', async () => {
    const text = fs.readFileSync(GET_RECORD, 'utf8');
    const record = text.slice(text.indexOf('<record>'), text.indexOf('</record>') + '</record>'.length).replace('<record>', `<record xmlns="${OAI}">`);
    const file = path.join(dir, 'saved.xml');
    fs.writeFileSync(file, record);
    const refusals = await refusalsOf(file);
    expect(refusals).to.have.length(1);
    expect(refusals[0]).to.include({ internalId: 'saved', field: 'xml' });
    expect(refusals[0]?.reason).to.match(/^the file is a bare OAI-PMH <record> \(a header and its metadata\) taken out of its response/);
    expect(refusals[0]?.reason).to.include('a GetRecord around this one record').and.include('the child of <metadata>');
    expect(refusals[0]?.reason).to.not.include('declare it in the configuration');
  });

  it('names a root no namespace declares', async () => {
    const text = fs.readFileSync(GET_RECORD, 'utf8');
    const file = path.join(dir, 'bare.xml');
    fs.writeFileSync(file, text.slice(text.indexOf('<record>'), text.indexOf('</record>') + '</record>'.length));
    const refusals = await refusalsOf(file);
    expect(refusals.map((r) => r.reason)).to.deep.equal([
      'the file\'s root <record> is in no namespace: an OAI-PMH record declares xmlns="http://www.openarchives.org/OAI/2.0/" on its root, and the loader reads a saved response, with <OAI-PMH xmlns="http://www.openarchives.org/OAI/2.0/"> at its root around <responseDate>, <request> and the verb element',
    ]);
  });

  const cases: { local: string; ns: string; want: RegExp | undefined }[] = [
    { local: 'GetRecord', ns: OAI, want: /^the file is an OAI-PMH <GetRecord> without the response around it/ },
    { local: 'ListRecords', ns: OAI, want: /^the file is an OAI-PMH <ListRecords> without the response around it/ },
    { local: 'metadata', ns: OAI, want: /^the file is an OAI-PMH <metadata> element: save its child alone/ },
    { local: 'Identify', ns: OAI, want: /^the file's root is the OAI-PMH element <Identify>, which holds no records/ },
    { local: 'OAI-PMH', ns: '', want: /^the file's root <OAI-PMH> is in no namespace: an OAI-PMH response declares/ },
    { local: 'thesis', ns: '', want: /^the file's root <thesis> is in no namespace, so it names no format/ },
    { local: 'nsdl_dc', ns: 'http://ns.nsdl.org/nsdl_dc_v1.02/', want: undefined },
  ];
  for (const c of cases) {
    it(`${c.want === undefined ? 'leaves' : 'names'} a root <${c.local}>${c.ns === '' ? ' in no namespace' : ` in ${c.ns}`}${c.want === undefined ? ' to the advice to declare its format' : ''}`, () => {
      const got = shapeAdvice(c.local, c.ns);
      if (c.want === undefined) expect(got).to.equal(undefined);
      else expect(got).to.match(c.want);
    });
  }
});
