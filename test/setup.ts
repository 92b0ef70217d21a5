/**
 * Runs before any test file: libxml2 reads XML_CATALOG_FILES when libxmljs2 is
 * first loaded, so the catalog must be set here, before any test imports it
 * (../../shared/schemas/README.md, beside the repository).
 */
import path from 'node:path';

process.env.XML_CATALOG_FILES = path.resolve(__dirname, '..', 'schemas', 'catalog.xml');
