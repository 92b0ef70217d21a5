/**
 * `datacite` and `oai_datacite` of one item serve one DataCite record: the
 * `payload` of DataCite's OAI-PMH wrapper 1.1 is the kernel-4 `resource`
 * (schemas/oai_datacite-1.1/oai.xsd), so a harvester that takes either
 * prefix gets the same bytes. Written from the model the two agree already
 * (lib/formats/oai-datacite.ts wraps datacite.ts's resource); where one of
 * the two is given, kept as given, the other is made from it rather than
 * from the model:
 *
 * - `datacite` given (a kernel-4 `resource`): `oai_datacite`'s payload is it,
 *   as given (its XML declaration aside, which a payload cannot carry);
 * - `oai_datacite` given: `datacite` is its payload, as given (white space
 *   and all), when that is
 *   one well-formed kernel-4 `resource` on its own (its namespaces declared
 *   in it, as a served record's must be).
 *
 * What is made so stays a written format (the wrapper's `datacentreSymbol`
 * is the configuration's): a store that writes formats on demand writes it
 * from the model and the given partner (lib/pipeline/prepare.ts
 * `writeFormatOf`). A given kernel-3 record is read into the model and
 * served in neither: `datacite` declares kernel-4's namespace, so both serve
 * the kernel-4 record written from the model, which the wrapper's
 * `schemaVersion` (4.7) names; a wrapper carrying the kernel-3 record would
 * differ from the `datacite` record served.
 *
 * Pure: no I/O, no clock.
 */
import { DATACITE_NS } from '../formats/datacite';
import { checkFragment } from '../xml/fragment';
import { parseFragment } from '../xml/tree';

const PAYLOAD = /<payload>([\s\S]*)<\/payload>/;

/** An XML document or fragment without its XML declaration and the white space before its element; the rest as given. */
function elementOf(xml: string): string {
  return xml.replace(/^\uFEFF?\s*(?:<\?xml[^>]*\?>\s*)?/, '');
}

/** True when the fragment is one well-formed kernel-4 DataCite `resource` (xsi being the envelope's, as for every served record). */
function isKernel4Resource(xml: string): boolean {
  if (checkFragment(xml, ['xsi']) !== null) return false;
  const root = parseFragment(xml);
  return root !== null && root.local === 'resource' && root.ns === DATACITE_NS;
}

/**
 * Makes the item's `datacite` and `oai_datacite` carry one record where one
 * of them is given and the other written (in `metadata`, in place; `written`
 * names the formats written from the model).
 *
 * @example pairDatacite(metadata, written, { datacite: '<resource xmlns="http://datacite.org/schema/kernel-4">…</resource>' }) // metadata.oai_datacite's payload is that resource
 */
export function pairDatacite(metadata: Record<string, string>, written: readonly string[], given: Readonly<Record<string, string>>): void {
  if (given.datacite !== undefined && written.includes('oai_datacite')) {
    const resource = elementOf(given.datacite);
    const wrapper = metadata.oai_datacite as string;
    if (isKernel4Resource(resource) && PAYLOAD.test(wrapper)) {
      metadata.oai_datacite = wrapper.replace(PAYLOAD, () => `<payload>${resource}</payload>`);
    }
    return;
  }
  if (given.oai_datacite !== undefined && written.includes('datacite')) {
    const payload = PAYLOAD.exec(given.oai_datacite)?.[1];
    if (payload !== undefined && isKernel4Resource(payload)) metadata.datacite = payload;
  }
}
