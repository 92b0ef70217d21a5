/**
 * The one door to libxmljs2 for the server. libxml2 reads XML_CATALOG_FILES
 * once, when the native module is first loaded, so the catalog of the
 * offline schemas (schemas/catalog.xml) must be in the environment before
 * anything requires libxmljs2; this module sets it and then requires the
 * library lazily (schemas/README.md).
 */
import type * as LibXml from 'libxmljs2';
import { projectPath } from '../paths';

let loaded: typeof LibXml | undefined;

/**
 * libxmljs2, loaded with XML_CATALOG_FILES pointing at schemas/catalog.xml
 * (an already set value is kept: a test or an operator may add catalogs).
 *
 * @example const doc = libxml().parseXml('<a/>', { nonet: true });
 */
export function libxml(): typeof LibXml {
  if (!loaded) {
    if (!process.env.XML_CATALOG_FILES) process.env.XML_CATALOG_FILES = projectPath('schemas', 'catalog.xml');
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    loaded = require('libxmljs2') as typeof LibXml;
  }
  return loaded;
}
