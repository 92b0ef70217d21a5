/**
 * Words a record gives (a dc:type, an element's name) are looked up in the
 * EDM crosswalk's tables as their own keys only: `__proto__` or
 * `constructor` from a record is an unknown word, never a property every
 * JavaScript object has.
 */
import { expect } from 'chai';
import { edmType } from '../../lib/formats/edm';
import { readEdm } from '../../lib/formats/edm-read';
import { parseFragment } from '../../lib/xml/tree';

const OBJECT_WORDS = ['__proto__', 'constructor', 'toString', 'hasOwnProperty'];

describe('edm: words from a record are keys of its tables only', () => {
  it('finds no edm:type in a dc:type that names a property of every object, and still finds the DCMI words', () => {
    for (const t of OBJECT_WORDS) expect(edmType({ dc: { type: [t] } }), t).to.equal(undefined);
    expect(edmType({ dc: { type: ['__proto__', 'http://purl.org/dc/dcmitype/StillImage'] } })).to.equal('IMAGE');
  });

  it('reads a dcterms element named after a property of every object as no relation', () => {
    for (const name of OBJECT_WORDS) {
      const xml =
        '<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns:edm="http://www.europeana.eu/schemas/edm/" ' +
        'xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:dcterms="http://purl.org/dc/terms/">' +
        `<edm:ProvidedCHO rdf:about="#cho"><dc:title>A title</dc:title><dcterms:${name} rdf:resource="https://doi.org/10.1234/abc"/>` +
        `<dcterms:isPartOf rdf:resource="https://doi.org/10.1234/whole"/></edm:ProvidedCHO></rdf:RDF>`;
      const model = readEdm(parseFragment(xml)!);
      expect(model.relatedIdentifiers ?? [], name).to.deep.equal([{ identifier: '10.1234/whole', type: 'DOI', relation: 'IsPartOf' }]);
    }
  });
});
