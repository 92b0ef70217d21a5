/**
 * The XSD checks of a batch (server/xsd/format-checks.ts): a format's
 * records, and the about containers of one namespace, are validated together
 * in one document, parsed once when every element is sound; each problem is
 * still reported against the element that has it, and only that one, and
 * an element that is not one well-formed element on its own is refused
 * however it joins its neighbours.
 */
import { expect } from 'chai';
import { createFormatRegistry } from '../../../lib/formats/registry';
import { PROVENANCE_NS, RIGHTS_NS } from '../../../lib/xml/namespaces';
import { createXsdChecks } from '../../../server/xsd/format-checks';
import { aboutRefusals } from '../../../lib/pipeline/judge';
import type { PreparedItem } from '../../../lib/pipeline/prepare';

const provenance = (id: string): string =>
  `<provenance xmlns="${PROVENANCE_NS}"><originDescription harvestDate="2001-01-01" altered="false">` +
  `<baseURL>http://example.org/oai</baseURL><identifier>${id}</identifier><datestamp>2001-01-01</datestamp>` +
  `<metadataNamespace>http://www.openarchives.org/OAI/2.0/oai_dc/</metadataNamespace></originDescription></provenance>`;
const rights = (ref: string): string => `<rights xmlns="${RIGHTS_NS}">\n<rightsReference ref="${ref}"/>\n</rights>`;

describe('the XSD checks of a batch', () => {
  const checks = createXsdChecks(createFormatRegistry());

  it('validates many containers of several namespaces at once and names the one at fault', () => {
    const given = [
      provenance('oai:example.org:1'),
      rights('https://creativecommons.org/licenses/by/4.0/'),
      `<rights xmlns="${RIGHTS_NS}">\n\n<nonsense/>\n</rights>`,
      provenance('oai:example.org:2'),
      `<provenance xmlns="${PROVENANCE_NS}"><originDescription altered="false"></provenance>`,
      `<thing xmlns="http://example.org/unknown/"/>`,
      '<?xml version="1.0"?>' + rights('https://example.org/r'),
      // Two halves of one element, each not well-formed alone: they must not pass as one when joined.
      `<rights xmlns="${RIGHTS_NS}">`,
      '<rightsReference ref="https://example.org/r"/></rights>',
      `<provenance xmlns="${PROVENANCE_NS}"><originDescription harvestDate="yesterday" altered="false"/></provenance>`,
      rights('https://example.org/last'),
    ];
    // As the judge runs it: every container of a batch in one call.
    const items = given.map((xml, k) => ({ internalId: `item ${k}`, metadata: {}, about: [{ xml }] })) as unknown as PreparedItem[];
    const out = aboutRefusals(items, checks).map((refusals) => refusals.map((r) => `${r.field}: ${r.reason}`));
    expect(out).to.have.length(given.length);
    for (const k of [0, 1, 3, 10]) expect(out[k], `container ${k}`).to.deep.equal([]);
    expect(out[2]).to.have.length(1);
    expect(out[2]?.[0]).to.match(/^about\[0\]: not valid against http:\/\/www\.openarchives\.org\/OAI\/2\.0\/rights\.xsd: line 3: .*nonsense/);
    for (const k of [4, 7, 8]) {
      expect(out[k], `container ${k}`).to.have.length(1);
      expect(out[k]?.[0], `container ${k}`).to.match(/^about\[0\]: the about container is not one well-formed XML element: /);
    }
    expect(out[5]?.[0]).to.match(/^about\[0\]: no schema is known offline for the namespace "http:\/\/example\.org\/unknown\/"/);
    expect(out[6]?.[0]).to.match(/^about\[0\]: must be one element, without an XML declaration/);
    expect(out[9]).to.have.length(1);
    expect(out[9]?.[0]).to.match(/^about\[0\]: not valid against http:\/\/www\.openarchives\.org\/OAI\/2\.0\/provenance\.xsd: line 1: .*harvestDate/);
  });

  const DC = (body: string, lead = ''): string =>
    `${lead}<oai_dc:dc xmlns:oai_dc="http://www.openarchives.org/OAI/2.0/oai_dc/" xmlns:dc="http://purl.org/dc/elements/1.1/">\n${body}\n</oai_dc:dc>`;

  it("reports each record's problems against that record, and refuses what is not one element however it joins its neighbours", () => {
    const check = checks.get('oai_dc');
    if (!check) throw new Error('oai_dc is always checked');
    const sound = [DC('<dc:title>One</dc:title>'), DC('<dc:title>Two</dc:title>\n<dc:creator>Someone</dc:creator>'), DC('<dc:title>Three</dc:title>')];
    // Every element sound: nothing to say about any.
    expect(check.check(sound)).to.deep.equal([[], [], []]);
    // Every element one element, one invalid: parsed once, the error traced to its record and line.
    const colour = DC('<dc:title>T</dc:title>\n\n<dc:colour>red</dc:colour>');
    const once = check.check([sound[0] as string, colour, sound[2] as string, colour]);
    expect(once.map((e) => e.length)).to.deep.equal([0, 1, 0, 1]);
    expect(once[1]?.[0]).to.match(/^not valid against http:\/\/www\.openarchives\.org\/OAI\/2\.0\/oai_dc\.xsd: line 4: .*colour/);
    const given = [
      sound[0] as string,
      DC('<dc:title>T</dc:title>\n\n<dc:colour>red</dc:colour>'),
      // Two halves of one element: each is not well-formed alone, the two joined would be.
      '<oai_dc:dc xmlns:oai_dc="http://www.openarchives.org/OAI/2.0/oai_dc/" xmlns:dc="http://purl.org/dc/elements/1.1/">',
      '<dc:title>Half</dc:title></oai_dc:dc>',
      `${sound[1] as string} trailing text`,
      `${sound[2] as string}${sound[2] as string}`,
      // A record using the wrapper's prefix, undeclared, and one starting with a line break (sound alone).
      DC('<dc:title oai-steward-batch:x="y">Prefix</dc:title>'),
      DC('<dc:title>Late start</dc:title>', '\n'),
      sound[2] as string,
    ];
    const out = check.check(given);
    expect(out).to.have.length(given.length);
    for (const k of [0, 7, 8]) expect(out[k], `record ${k}`).to.deep.equal([]);
    expect(out[1]).to.have.length(1);
    expect(out[1]?.[0]).to.match(/^not valid against http:\/\/www\.openarchives\.org\/OAI\/2\.0\/oai_dc\.xsd: line 4: .*colour/);
    for (const k of [2, 3, 4, 5]) {
      expect(out[k], `record ${k}`).to.have.length(1);
      expect(out[k]?.[0], `record ${k}`).to.match(/^not well-formed XML: /);
    }
    // libxml2 reads an undeclared prefix as a namespace error, not a fatal one; the attribute is refused all the same.
    expect(out[6]).to.have.length(1);
    expect(out[6]?.[0]).to.match(/^not valid against http:\/\/www\.openarchives\.org\/OAI\/2\.0\/oai_dc\.xsd: line 2: .*attribute/);
  });

  it('checks a batch larger than libxml2 takes in one document, and names the record at fault past the first document', () => {
    const check = checks.get('oai_dc');
    if (!check) throw new Error('oai_dc is always checked');
    // 45 records of 300,000 characters: 13.5 MB, past libxml2's 10,000,000-byte input lookup limit when joined.
    const abstract = 'Lorem ipsum dolor sit amet, consectetur adipiscing elit. '.repeat(5264);
    const given = Array.from({ length: 45 }, (_, k) => DC(`<dc:title>Record ${k}</dc:title>\n<dc:description>${abstract}</dc:description>`));
    given[40] = DC(`<dc:title>Record 40</dc:title>\n<dc:description>${abstract}</dc:description>\n<dc:colour>red</dc:colour>`);
    expect(given.reduce((n, x) => n + Buffer.byteLength(x), 0)).to.be.greaterThan(10_000_000);
    const out = check.check(given);
    expect(out).to.have.length(45);
    for (let k = 0; k < 45; k++) if (k !== 40) expect(out[k], `record ${k}`).to.deep.equal([]);
    expect(out[40]).to.have.length(1);
    expect(out[40]?.[0]).to.match(/^not valid against http:\/\/www\.openarchives\.org\/OAI\/2\.0\/oai_dc\.xsd: line 4: .*colour/);
  });
});
