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
const extraCatalogs: string[] = [];

/**
 * Adds XML catalogs (absolute paths) for the local XSDs of formats declared
 * in the configuration. libxml2 reads its catalog list once, so this works
 * before the first validation only; a catalog added later throws rather
 * than being silently ignored.
 *
 * @example addCatalogs(['/srv/schemas/my-format/catalog.xml']);
 */
export function addCatalogs(files: readonly string[]): void {
  const fresh = files.filter((f) => !extraCatalogs.includes(f));
  if (fresh.length === 0) return;
  if (loaded) throw new Error(`the XML catalogs ${fresh.join(', ')} came after the first validation; libxml2 reads catalogs once at start-up`);
  extraCatalogs.push(...fresh);
}

/**
 * libxmljs2, loaded with XML_CATALOG_FILES pointing at schemas/catalog.xml
 * (an already set value is kept: a test or an operator may add catalogs).
 *
 * @example const doc = libxml().parseXml('<a/>', { nonet: true });
 */
export function libxml(): typeof LibXml {
  if (!loaded) {
    if (!process.env.XML_CATALOG_FILES) process.env.XML_CATALOG_FILES = projectPath('schemas', 'catalog.xml');
    // XML_CATALOG_FILES is a space-separated list (libxml2 catalog.c).
    if (extraCatalogs.length > 0) process.env.XML_CATALOG_FILES = [process.env.XML_CATALOG_FILES, ...extraCatalogs].join(' ');
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    loaded = require('libxmljs2') as typeof LibXml;
  }
  return loaded;
}
