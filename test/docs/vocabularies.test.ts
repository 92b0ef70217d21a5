/**
 * docs/metadata-formats.md ("Vocabularies") says which version of each
 * controlled list the code carries and how a DataCite resourceTypeGeneral
 * becomes a COAR resource type; both tables are held to the code here, so
 * neither can drift from it.
 */
import { expect } from 'chai';
import { COAR_OF_DATACITE_GENERAL, COAR_RESOURCE_TYPE_PREFIX, COAR_TYPES, VOCABULARY_VERSIONS } from '../../lib/model/vocabularies';
import { readMarkdown, tableRows } from '../helpers/markdown';

const doc = readMarkdown('docs/metadata-formats.md').text;

describe('the vocabularies of docs/metadata-formats.md', () => {
  it('lists every vocabulary with the version and source the code says, and no other', () => {
    const rows = tableRows(doc, 'vocabulary').map((r) => r.value.map((c) => c.trim()));
    expect(rows).to.deep.equal(VOCABULARY_VERSIONS.map((v) => [v.vocabulary, v.version, v.source]));
  });

  it('gives the COAR concept and label of every DataCite resourceTypeGeneral as the code maps it', () => {
    const rows = tableRows(doc, 'DataCite resourceTypeGeneral').map((r) => r.value.map((c) => c.trim()));
    expect(rows).to.deep.equal(
      Object.entries(COAR_OF_DATACITE_GENERAL).map(([general, suffix]) => [general, suffix, COAR_TYPES.get(COAR_RESOURCE_TYPE_PREFIX + suffix)?.label]),
    );
  });
});
