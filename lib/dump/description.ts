/**
 * The Identify description that points harvesters at the bulk dumps
 * (docs/dumps.md): an `oai_dc:dc` container (OAI-PMH 2.0 section 4.2 lets a
 * repository describe itself in any schema-valid container; oai_dc is the
 * one every harvester reads), naming the dump folder's address.
 *
 * Pure: the address is given.
 */
import { dublinCoreToOaiDc } from '../formats/oai-dc';

/**
 * The description, for the dump folder at `url`.
 *
 * @example dumpsDescription('https://repo.example.org/dumps/') // '<oai_dc:dc …><dc:title>Bulk dumps of this repository</dc:title>…'
 */
export function dumpsDescription(url: string): string {
  return dublinCoreToOaiDc({
    title: ['Bulk dumps of this repository'],
    description: [
      'Every record in every format as one gzipped ListRecords response per format, the records as gzipped JSON lines, ' +
        'and a manifest (JSON) with counts, the snapshot time and the SHA-256 of each file: download once, then harvest with from.',
    ],
    identifier: [url],
    format: ['application/gzip'],
  });
}
