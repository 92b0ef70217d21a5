/** ResourceSync (ANSI/NISO Z39.99-2017) and the sitemap: where documents live, how they are written, and the ZIP packages of a Resource Dump. */
export { syncPath, parseSyncPath, sitemapPath, parseSitemapPath, WELL_KNOWN, SYNC_ROOT, SITEMAP, ROBOTS, type SyncDoc, type SitemapDoc } from './paths';
export {
  openDocument,
  closeDocument,
  entry,
  resourceBytes,
  resourceDigest,
  packagedName,
  changeOf,
  MAX_LOC,
  SITEMAP_LIMIT,
  XML_TYPE,
  XML_DECL,
  type Root,
  type Capability,
  type RsMd,
  type RsLn,
  type Entry,
} from './documents';
export { ZipWriter, type ZipSink, type ZipOptions } from './zip';
