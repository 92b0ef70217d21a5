/**
 * The reader beside the `oai_dc` writer: unqualified Dublin Core (OAI-PMH
 * section 5, oai_dc.xsd) lifted into the record model. Each of the fifteen
 * elements becomes its `dc` field, every value as written (without the
 * whitespace around it; blank values are none), in document order, repeats
 * kept; and every dc:identifier that spells its scheme (a DOI, a Handle URL,
 * a URN, …) is also a typed identifier (./reader-rules.ts).
 *
 * Nothing else is typed: a dc:date may be any date of the resource's life, a
 * dc:creator any kind of agent, a dc:language a code or a language's name,
 * so they stay Dublin Core, as given (the model's facts read them there).
 * Elements of other namespaces and text between elements (which real
 * providers leave) are not Dublin Core and are not read.
 *
 * Pure and total: an element other than oai_dc:dc gives an empty record.
 */
import { DC_ELEMENTS, type DcElement } from '../model/dublin-core';
import type { RecordFields } from '../model/record';
import { DC_NS, OAI_DC_NS } from '../xml/namespaces';
import type { XmlElement } from '../xml/tree';
import { addDc, draft, finish } from './reader-rules';
import { elements, text } from './xml-in';

/**
 * Lifts an `oai_dc:dc` element into the record model.
 *
 * @example readOaiDc(parseFragment('<oai_dc:dc xmlns:oai_dc="http://www.openarchives.org/OAI/2.0/oai_dc/" xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:identifier>http://hdl.handle.net/1765/315</dc:identifier></oai_dc:dc>')!)
 * // → { dc: { identifier: ['http://hdl.handle.net/1765/315'] }, identifiers: [{ type: 'Handle', value: '1765/315' }] }
 */
export function readOaiDc(root: XmlElement): RecordFields {
  const d = draft();
  if (root.ns === OAI_DC_NS && root.local === 'dc') {
    for (const e of elements(root)) {
      if (e.ns === DC_NS && (DC_ELEMENTS as readonly string[]).includes(e.local)) addDc(d, e.local as DcElement, text(e));
    }
  }
  return finish(d);
}
