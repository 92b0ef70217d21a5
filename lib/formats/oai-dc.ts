/**
 * Unqualified Dublin Core as `oai_dc` (OAI-PMH 5 and oai_dc.xsd): the
 * fifteen elements of Dublin Core 1.1 (DC_NS), each optional and
 * repeatable, in the order the record gives them.
 */
import { DC_ELEMENTS, type DcElement, type DublinCore } from '../model/dublin-core';
import { escapeText } from '../xml/chars';
import { findNonXmlChar } from '../model/text';
import { DC_NS, OAI_DC_NS, OAI_DC_SCHEMA, XSI_NS } from '../xml/namespaces';
import { parseFragment, textOf, type XmlElement } from '../xml/tree';
import type { MetadataFormat } from './format';
import { readOaiDc } from './oai-dc-read';

const OPEN = `<oai_dc:dc xmlns:oai_dc="${OAI_DC_NS}" xmlns:dc="${DC_NS}" xmlns:xsi="${XSI_NS}"` + ` xsi:schemaLocation="${OAI_DC_NS} ${OAI_DC_SCHEMA}">`;

/**
 * Serializes Dublin Core fields as one `oai_dc:dc` element (no XML
 * declaration), ready to be stored and spliced into responses. Written as
 * escaped text rather than through a DOM: it runs once per record of every
 * load, and the shape is fixed. Throws for a value XML 1.0 cannot carry.
 * Example: `dublinCoreToOaiDc({ title: ['Caf\u00e9'] })` →
 * `<oai_dc:dc xmlns:oai_dc=… …><dc:title>Café</dc:title></oai_dc:dc>`.
 */
export function dublinCoreToOaiDc(dc: DublinCore): string {
  let out = OPEN;
  for (const name of DC_ELEMENTS) {
    for (const value of dc[name] ?? []) {
      const bad = findNonXmlChar(value);
      if (bad) throw new RangeError(`dc:${name} holds a character XML 1.0 cannot carry (${bad})`);
      out += `<dc:${name}>${escapeText(value)}</dc:${name}>`;
    }
  }
  return `${out}</oai_dc:dc>`;
}

/** The oai_dc entry of the format registry. */
export const oaiDc: MetadataFormat = {
  prefix: 'oai_dc',
  schema: OAI_DC_SCHEMA,
  namespace: OAI_DC_NS,
  builtIn: true,
  fromDublinCore: dublinCoreToOaiDc,
  read: readOaiDc,
};

/**
 * The Dublin Core of a stored oai_dc record, read back: what rules over the
 * record judge for items whose typed fields the store does not hold
 * (records loaded as XML).
 *
 * @example dublinCoreOf('<oai_dc:dc …><dc:title>T</dc:title></oai_dc:dc>') // { title: ['T'] }
 */
export function dublinCoreOf(xml: string | null): DublinCore {
  const root = xml ? parseFragment(xml) : null;
  return root ? dublinCoreOfTree(root) : {};
}

/** The Dublin Core elements of a parsed oai_dc record, in record order (empty when the root is not oai_dc). */
function dublinCoreOfTree(root: XmlElement): DublinCore {
  if (root.ns !== OAI_DC_NS) return {};
  const dc: Partial<Record<DcElement, string[]>> = {};
  for (const child of root.children) {
    if (child.kind !== 'element' || child.ns !== DC_NS || !(DC_ELEMENTS as readonly string[]).includes(child.local)) continue;
    const name = child.local as DcElement;
    (dc[name] ??= []).push(textOf(child));
  }
  return dc;
}
