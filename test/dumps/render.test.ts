/**
 * A ListRecords document streamed in parts (lib/oai/render.ts, as a bulk
 * dump writes it) is byte for byte the response the endpoint renders whole
 * for the same records.
 */
import { expect } from 'chai';
import { LIST_RECORDS_CLOSING, listRecordsOpening, recordsBytes, renderResponseBytes } from '../../lib/oai/render';
import type { OaiResponse } from '../../lib/oai/response';
import type { ItemRecord } from '../../lib/store';

const DC =
  '<oai_dc:dc xmlns:oai_dc="http://www.openarchives.org/OAI/2.0/oai_dc/" xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:title>Ünïcode &amp; more</dc:title></oai_dc:dc>';

describe('a ListRecords document streamed in parts', () => {
  it('is the whole response the endpoint renders for the same records, byte for byte', () => {
    const records: ItemRecord[] = [
      { pk: 1, internalId: 'a', identifier: 'oai:x.org:a', datestamp: 1700000000, deleted: false, sets: ['s:t'], metadata: DC, about: ['<x xmlns="urn:x"/>'] },
      { pk: 2, internalId: 'b', identifier: 'oai:x.org:b', datestamp: 1700000001, deleted: true, sets: [], metadata: null },
      { pk: 3, internalId: 'c', identifier: 'oai:x.org:c', datestamp: 1700000002, deleted: false, sets: [], metadata: DC },
    ];
    const envelope = {
      responseDate: 1800000000,
      baseURL: 'http://x.org/oai',
      requestArgs: { verb: 'ListRecords' as const, metadataPrefix: 'oai_dc', from: '2023-01-01' },
    };
    const whole: OaiResponse = { ...envelope, body: { kind: 'ListRecords', records } };
    const parts = Buffer.concat([
      listRecordsOpening(envelope),
      recordsBytes(records.slice(0, 2)),
      recordsBytes(records.slice(2)),
      Buffer.from(LIST_RECORDS_CLOSING),
    ]);
    expect(parts.toString('utf8')).to.equal(renderResponseBytes(whole).toString('utf8'));
  });
});
