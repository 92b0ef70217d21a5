/**
 * A repository with no item and no set yet: Identify still validates (with a
 * syntactically valid sample identifier), and the set-related errors are the
 * ones OAI-PMH 4.6 and 4.3/4.5 name for a repository without sets.
 */
import { expect } from 'chai';
import { forEachProvider, oaiGet, errorCodes, texts } from '../../helpers/server';
import { item } from '../../helpers/store-fixtures';
import { formatDatestamp } from '../../../lib/oai/dates';

describe('an empty repository without sets', () => {
  forEachProvider({ seed: false }, (provider) => {
    const rows: Array<[string, string, string[]]> = [
      ['ListSets is noSetHierarchy', 'verb=ListSets', ['noSetHierarchy']],
      ['ListIdentifiers of a set is noSetHierarchy', 'verb=ListIdentifiers&metadataPrefix=oai_dc&set=a', ['noSetHierarchy']],
      [
        'ListRecords of a set in an unknown format reports both errors',
        'verb=ListRecords&metadataPrefix=marc&set=a',
        ['cannotDisseminateFormat', 'noSetHierarchy'],
      ],
      ['ListRecords is noRecordsMatch', 'verb=ListRecords&metadataPrefix=oai_dc', ['noRecordsMatch']],
      ['GetRecord is idDoesNotExist', 'verb=GetRecord&identifier=oai%3Ademo.oai-steward.org%3Ax&metadataPrefix=oai_dc', ['idDoesNotExist']],
    ];
    for (const [name, query, codes] of rows) {
      it(name, async () => {
        expect(errorCodes(await oaiGet(provider().port, query))).to.deep.equal(codes);
      });
    }

    it("answers Identify with a valid description and the store's creation time as earliestDatestamp, not the epoch", async () => {
      const xml = await oaiGet(provider().port, 'verb=Identify');
      const kept = (await provider().knex('settings').select('value').where('key', 'store_created').first()) as { value: string } | undefined;
      const created = Number(kept?.value);
      // The store was made by the migrations this test's provider ran, before the request.
      const migrated = (await provider().knex('knex_migrations').select('migration_time').orderBy('id').first()) as { migration_time: unknown };
      const migratedMs = migrated.migration_time instanceof Date ? migrated.migration_time.getTime() : Number(migrated.migration_time);
      expect(created).to.equal(Math.floor(migratedMs / 1000));
      expect(created).to.be.at.most(Math.floor(Date.now() / 1000));
      expect(texts(xml, 'earliestDatestamp')).to.deep.equal([formatDatestamp(created)]);
      expect(texts(xml, 'earliestDatestamp')).not.to.deep.equal(['1970-01-01T00:00:00Z']);
      expect(texts(xml, 'sampleIdentifier')).to.deep.equal(['oai:demo.oai-steward.org:sample']);
    });

    it('keeps the creation time once: a later ask, or another process, reads the same', async () => {
      const first = await provider().store.createdAt();
      await provider().knex('settings').where('key', 'store_created').delete();
      // A store made before the time was kept: its first migration's time, kept from now on.
      const again = await provider().store.createdAt();
      expect(again).to.equal(first);
      expect(await provider().store.createdAt()).to.equal(first);
    });

    it('still lists every configured format, oai_dc first, in ListMetadataFormats', async () => {
      expect(texts(await oaiGet(provider().port, 'verb=ListMetadataFormats'), 'metadataPrefix')).to.deep.equal([
        'oai_dc',
        'oai_openaire',
        'datacite',
        'oai_datacite',
        'marc21',
        'mods',
        'edm',
      ]);
    });
  });
});

describe('a repository whose sample item has entity-like text in its identifier', () => {
  forEachProvider({ seed: false }, (provider) => {
    it('names it in Identify exactly, in a valid answer (a local-identifier may hold & and ;)', async () => {
      const [written] = await provider().store.writeItems([item('a&amp;b&foo;c')]);
      // oaiGet validates the answer against the XSDs; an unescaped &foo; would not even be well-formed.
      const xml = await oaiGet(provider().port, 'verb=Identify');
      expect(texts(xml, 'sampleIdentifier')).to.deep.equal([written?.identifier]);
      expect(written?.identifier).to.equal('oai:demo.oai-steward.org:a&amp;b&foo;c');
    });
  });
});
