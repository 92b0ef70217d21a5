/**
 * XML fixtures as the format readers take them: a file's root element, or
 * the metadata of every record of a saved OAI-PMH response, parsed by the
 * project's own reader (lib/xml/tree.ts).
 */
import fs from 'node:fs';
import path from 'node:path';
import { OAI_NS } from '../../lib/xml/namespaces';
import { findAll, parseFragment, type XmlElement } from '../../lib/xml/tree';

const FIXTURES = path.resolve(__dirname, '..', 'fixtures');

/** The root element of a fixture file (its XML declaration set aside). @example fixtureRoot('formats', 'openaire', 'sample_minimal.xml').local // 'resource' */
export function fixtureRoot(...file: string[]): XmlElement {
  const xml = fs.readFileSync(path.join(FIXTURES, ...file), 'utf8').replace(/^\uFEFF?<\?xml[^>]*\?>\s*/, '');
  const root = parseFragment(xml);
  if (!root) throw new Error(`${file.join('/')} is not one well-formed element`);
  return root;
}

/** The root element inside each `metadata` of a saved OAI-PMH response, in document order. */
export function metadataRoots(...file: string[]): XmlElement[] {
  return findAll(fixtureRoot(...file), OAI_NS, 'metadata').flatMap((m) => m.children.filter((c): c is XmlElement => c.kind === 'element').slice(0, 1));
}

/** A fixture file's text. */
export function fixtureText(...file: string[]): string {
  return fs.readFileSync(path.join(FIXTURES, ...file), 'utf8');
}
