/**
 * The reader beside the `oai_datacite` writer: DataCite's OAI-PMH wrapper
 * (oai-1.1, and oai-1.0 before it) lifted into the record model through the
 * DataCite resource in its `payload`, kernel-4 or kernel-3
 * (./datacite-read.ts). The wrapper's own elements (`schemaVersion`,
 * `datacentreSymbol`, `isReferenceQuality`) describe the registration, not
 * the resource, and are not lifted.
 *
 * Pure and total: a wrapper without a DataCite resource gives an empty record.
 */
import type { RecordFields } from '../model/record';
import type { XmlElement } from '../xml/tree';
import { readDatacite } from './datacite-read';
import { elements, kid } from './xml-in';

export const OAI_DATACITE_1_0_NS = 'http://schema.datacite.org/oai/oai-1.0/';

/**
 * Lifts an `oai_datacite` wrapper into the record model through its payload.
 *
 * @example readOaiDatacite(parseFragment('<oai_datacite xmlns="http://schema.datacite.org/oai/oai-1.1/"><payload><resource xmlns="http://datacite.org/schema/kernel-4">…</resource></payload></oai_datacite>')!)
 */
export function readOaiDatacite(root: XmlElement): RecordFields {
  if (root.local !== 'oai_datacite') return { dc: {} };
  const payload = kid(root, 'payload');
  const resource = payload === undefined ? undefined : elements(payload)[0];
  return resource === undefined ? { dc: {} } : readDatacite(resource);
}
