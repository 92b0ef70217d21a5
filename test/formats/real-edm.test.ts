/**
 * Europeana's own EDM, as its services publish it (EDM-INTERNAL.xsd: the
 * ProvidedCHO empty, the provider's description in an ore:Proxy beside
 * Europeana's own proxy and aggregation): read, served in every format we
 * write, and validated against the schema set Europeana ingests with,
 * which EDM.xsd alone refuses. Fixture: test/fixtures/edm-internal/SOURCE.md.
 */
import { expect } from 'chai';
import { createFormatRegistry, registryFromDeclarations } from '../../lib/formats/registry';

import { dublinCoreOf, oaiDc } from '../../lib/formats/oai-dc';
import { edm, edmSchemaOf, EDM_INTERNAL_SCHEMA } from '../../lib/formats/edm';
import { createXsdChecks } from '../../server/xsd/format-checks';
import { fixtureText } from '../helpers/xml-fixtures';
import { checkItemOf, failures, serve } from '../helpers/served';

const xml = fixtureText('edm-internal', 'europeana_record_edm_internal.xml').replace(/^\uFEFF?<\?xml[^>]*\?>\s*/, '');
/** The edm format as EDM.xsd alone would judge it. */
const { schemaOfRecord: _unused, ...edmAlone } = edm;
const registry = registryFromDeclarations([{ prefix: 'edm', kind: 'builtin', options: { dataProvider: 'Example Museum', provider: 'Example Aggregator' } }]);

describe("Europeana's own EDM (ore:Proxy), metis-framework's europeana_record_edm_internal.xml", () => {
  const item = serve('edm', xml);

  it("reads the provider proxy's description as the object's, not Europeana's proxy", () => {
    const f = item.fields!;
    expect(f.dc.title).to.deep.equal(['Panoramic Photography of link path 7-8 at Skara Brae']);
    expect(f.dc.type).to.deep.equal(['3D']);
    expect(f.resourceType).to.deep.equal({ general: 'Other', label: '3D' });
    expect(f.dc.source).to.deep.equal(['Historic Scotland']);
    expect(f.dc.rights).to.deep.equal(['© Historic Scotland']);
    expect(f.license).to.equal('http://rightsstatements.org/vocab/InC/1.0/');
    // Europeana's proxy gives dc:identifier CMC_HA/936: an identifier Europeana keeps, not the provider's description.
    expect(f.dc.identifier).to.deep.equal(['http://3dicons.dcu.gr/object/HA/936', 'http://cmcassociates.co.uk/Skara_Brae/landing/sb_h10_lidar.html']);
    expect(f.dc.coverage).to.deep.equal(['Skara Brae', 'Neolithic', 'Neolithic']);
  });

  it('is served as oai_dc, MARCXML and MODS written from it, and as the EDM given', () => {
    expect(Object.keys(item.metadata).sort()).to.deep.equal(['edm', 'marc21', 'mods', 'oai_dc']);
    expect(item.metadata.edm).to.equal(xml);
    const dc = dublinCoreOf(item.metadata.oai_dc ?? null);
    expect(dc.title).to.deep.equal(['Panoramic Photography of link path 7-8 at Skara Brae']);
    expect(dc.type).to.deep.equal(['3D']);
    expect(dc.rights).to.deep.equal(['http://rightsstatements.org/vocab/InC/1.0/', '© Historic Scotland']);
    expect(item.metadata.mods).to.contain('<title>Panoramic Photography of link path 7-8 at Skara Brae</title>');
  });

  it('passes the europeana profile rules that judge what it says', () => {
    const ids = failures('europeana', checkItemOf(item)).map((f) => f.slice(0, f.indexOf(':')));
    expect(ids).to.not.include.members(['edm-type', 'rights', 'title-or-description']);
  });

  it('is validated against EDM-INTERNAL.xsd, which accepts it, where EDM.xsd refuses its proxies', () => {
    expect(edmSchemaOf(xml)).to.equal(EDM_INTERNAL_SCHEMA);
    const checks = createXsdChecks(registry).get('edm')!;
    expect(checks.check([xml])).to.deep.equal([[]]);
    // An EDM record without proxies (Europeana's external sample) is still validated against EDM.xsd.
    const external = fixtureText('formats', 'edm', 'Item_35834473.xml').replace(/^\uFEFF?<\?xml[^>]*\?>\s*/, '');
    expect(edmSchemaOf(external)).to.equal(undefined);
    expect(checks.check([external, xml])).to.deep.equal([[], []]);
    // EDM.xsd alone refuses it: the object empty, its description in proxies.
    const alone = createXsdChecks(createFormatRegistry([oaiDc, edmAlone]));
    expect(alone.get('edm')!.check([xml])[0]?.[0]).to.match(/^not valid against .*EDM\.xsd: .*ProvidedCHO/);
  });
});
