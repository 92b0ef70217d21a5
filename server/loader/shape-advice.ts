/**
 * What to do with an XML file the loader cannot read as records, named by
 * the shape it saw: the loader reads a saved OAI-PMH response (root
 * `OAI-PMH` in the OAI-PMH namespace), a bare metadata document of a format
 * (known by its root element's namespace) and a collection of bare records
 * (docs/loading.md#oai-pmh-xml-inputs). A file of another shape gets advice
 * for that shape, not the advice for a format to declare.
 *
 * Pure: no I/O, no clock.
 */
import { OAI_NS } from '../../lib/xml/namespaces';

/** Elements of the OAI-PMH namespace that hold records, when found at a file's root. */
const OAI_LISTS = new Set(['ListRecords', 'GetRecord', 'ListIdentifiers']);

/**
 * The advice for a bare document whose root element (`local` in namespace
 * `ns`) is not a format's, or undefined when its shape is that of a
 * metadata document (a format to declare, ../../lib/model/refusal.ts
 * `undeclaredFormat`).
 *
 * @example shapeAdvice('record', 'http://www.openarchives.org/OAI/2.0/') // 'the file is a bare OAI-PMH <record> …'
 */
export function shapeAdvice(local: string, ns: string): string | undefined {
  const response =
    'a saved response, with <OAI-PMH xmlns="http://www.openarchives.org/OAI/2.0/"> at its root around <responseDate>, <request> and the verb element';
  if (ns === OAI_NS) {
    if (local === 'record')
      return (
        'the file is a bare OAI-PMH <record> (a header and its metadata) taken out of its response: the loader reads records in ' +
        `${response} (a GetRecord around this one record), or the metadata alone (the child of <metadata>, saved as ID.xml)`
      );
    if (OAI_LISTS.has(local)) return `the file is an OAI-PMH <${local}> without the response around it: the loader reads ${response}`;
    if (local === 'metadata') return "the file is an OAI-PMH <metadata> element: save its child alone (its root is the format's, e.g. <oai_dc:dc>) as ID.xml";
    return `the file's root is the OAI-PMH element <${local}>, which holds no records the loader reads: give it ${response}`;
  }
  if (ns === '' && (local === 'OAI-PMH' || local === 'record' || OAI_LISTS.has(local)))
    return (
      `the file's root <${local}> is in no namespace: an OAI-PMH ${local === 'record' ? 'record' : 'response'} declares ` +
      `xmlns="http://www.openarchives.org/OAI/2.0/" on its root, and the loader reads ${response}`
    );
  if (ns === '')
    return (
      `the file's root <${local}> is in no namespace, so it names no format: a bare metadata document is known by its root element's ` +
      'namespace (oai_dc, DataCite, OpenAIRE, MODS, MARCXML, EDM, or a format declared in the configuration)'
    );
  return undefined;
}
