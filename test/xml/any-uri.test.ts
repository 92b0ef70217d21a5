import { expect } from 'chai';
import { isSurelyAnyUri } from '../../lib/xml/any-uri';
import { escapeAttr } from '../../lib/xml/chars';
import { OAI_NS } from '../../lib/xml/namespaces';
import { xsdErrors } from '../helpers/xsd';

/** A response echoing `identifier`, which OAI-PMH.xsd types xs:anyURI. */
function echoing(identifier: string): string {
  return `<?xml version="1.0" encoding="UTF-8"?><OAI-PMH xmlns="${OAI_NS}"><responseDate>2024-01-01T00:00:00Z</responseDate><request verb="GetRecord" identifier="${escapeAttr(identifier)}" metadataPrefix="oai_dc">http://x.org/oai</request><error code="idDoesNotExist">no</error></OAI-PMH>`;
}

describe('isSurelyAnyUri', () => {
  const sure = [
    'oai:demo.oai-steward.org:report%2012',
    'oai:arXiv.org:hep-th/9901001',
    'http://purl.org/poi/a.org/x?y=1#z',
    'urn:isbn:0451450523',
    'relative/path',
    'info:fedora/demo:1',
  ];
  for (const s of sure) {
    it(`accepts ${JSON.stringify(s)}, and so does the schema validator`, () => {
      expect(isSurelyAnyUri(s)).to.equal(true);
      expect(xsdErrors(echoing(s))).to.deep.equal([]);
    });
  }

  const unsure = ['2024-01-01T25:61:61Z', '1:2', 'http://[::1', '%zz'];
  for (const s of unsure) {
    it(`does not vouch for ${JSON.stringify(s)}, which the schema validator refuses`, () => {
      expect(isSurelyAnyUri(s)).to.equal(false);
      expect(xsdErrors(echoing(s))).to.not.deep.equal([]);
    });
  }
});
