/**
 * lib/pipeline/datacite-pair.ts, pure: which given DataCite record the other
 * of the pair is made from, and what stays written from the model.
 */
import { expect } from 'chai';
import { pairDatacite } from '../../lib/pipeline/datacite-pair';
import { fixtureText } from '../helpers/xml-fixtures';

const WRITTEN_WRAPPER =
  '<oai_datacite xmlns="http://schema.datacite.org/oai/oai-1.1/"><schemaVersion>4.7</schemaVersion><datacentreSymbol>A.B</datacentreSymbol><payload><resource xmlns="http://datacite.org/schema/kernel-4"><identifier identifierType="DOI">10.1/written</identifier></resource></payload></oai_datacite>';
const WRITTEN_RESOURCE = '<resource xmlns="http://datacite.org/schema/kernel-4"><identifier identifierType="DOI">10.1/written</identifier></resource>';
const payloadOf = (xml: string | undefined): string | undefined => /<payload>([\s\S]*)<\/payload>/.exec(xml ?? '')?.[1];

describe('datacite and oai_datacite serve one record (pairDatacite)', () => {
  it('puts a given kernel-4 datacite record in the written wrapper, its XML declaration aside and the rest as given', () => {
    const given = fixtureText('readers', 'datacite', 'datacite.xml');
    expect(given.startsWith('<?xml')).to.equal(true);
    const metadata: Record<string, string> = { datacite: given, oai_datacite: WRITTEN_WRAPPER };
    pairDatacite(metadata, ['oai_dc', 'oai_datacite'], { datacite: given });
    expect(payloadOf(metadata.oai_datacite)).to.equal(given.replace(/^<\?xml[^>]*\?>\s*/, ''));
    expect(metadata.oai_datacite).to.contain('<datacentreSymbol>A.B</datacentreSymbol>');
    expect(metadata.datacite).to.equal(given);
  });

  it('leaves the wrapper written from the model for a given kernel-3 record (the wrapper says 4.7)', () => {
    const given = fixtureText('readers', 'datacite', 'datacite_dataset.xml').replace(/^<\?xml[^>]*\?>\s*/, '');
    expect(given).to.contain('http://datacite.org/schema/kernel-3');
    const metadata: Record<string, string> = { datacite: given, oai_datacite: WRITTEN_WRAPPER };
    pairDatacite(metadata, ['oai_datacite'], { datacite: given });
    expect(metadata.oai_datacite).to.equal(WRITTEN_WRAPPER);
  });

  it("makes datacite a given wrapper's payload only when that is a kernel-4 resource on its own", () => {
    const own = '<resource xmlns="http://datacite.org/schema/kernel-4"><identifier identifierType="DOI">10.1/given</identifier></resource>';
    const wrapper = (payload: string): string =>
      `<oai_datacite xmlns="http://schema.datacite.org/oai/oai-1.1/" xmlns:dc4="http://datacite.org/schema/kernel-4"><payload>${payload}</payload></oai_datacite>`;
    const standalone: Record<string, string> = { oai_datacite: wrapper(own), datacite: WRITTEN_RESOURCE };
    pairDatacite(standalone, ['datacite'], { oai_datacite: wrapper(own) });
    expect(standalone.datacite).to.equal(own);
    // A payload whose prefix the wrapper declares is no record on its own: datacite stays written from the model.
    const leaning = '<dc4:resource><dc4:identifier identifierType="DOI">10.1/given</dc4:identifier></dc4:resource>';
    const borrowed: Record<string, string> = { oai_datacite: wrapper(leaning), datacite: WRITTEN_RESOURCE };
    pairDatacite(borrowed, ['datacite'], { oai_datacite: wrapper(leaning) });
    expect(borrowed.datacite).to.equal(WRITTEN_RESOURCE);
  });

  it('changes nothing when both or neither are given, or the other one is not written', () => {
    const both: Record<string, string> = { datacite: WRITTEN_RESOURCE, oai_datacite: WRITTEN_WRAPPER };
    pairDatacite(both, [], { datacite: WRITTEN_RESOURCE, oai_datacite: WRITTEN_WRAPPER });
    expect(both).to.deep.equal({ datacite: WRITTEN_RESOURCE, oai_datacite: WRITTEN_WRAPPER });
    const model: Record<string, string> = { datacite: WRITTEN_RESOURCE, oai_datacite: WRITTEN_WRAPPER };
    pairDatacite(model, ['datacite', 'oai_datacite'], {});
    expect(model).to.deep.equal({ datacite: WRITTEN_RESOURCE, oai_datacite: WRITTEN_WRAPPER });
  });
});
