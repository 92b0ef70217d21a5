/**
 * The bounds on one XML element that every reader of input XML keeps
 * (server/loader/xml-guard.ts before libxml2, ./fragment.ts on every
 * stored fragment): libxml2 compares an element's attributes, and its
 * namespace declarations, pairwise, so an element with 100,000 attributes
 * took 87.6 s and one with 50,000 declarations 46 s. Real metadata has
 * fewer than 20 of each.
 */

/** The most attributes one element may have, namespace declarations apart. */
export const MAX_XML_ATTRIBUTES = 256;

/** The most namespace declarations (Namespaces in XML 1.0 section 3) one element may make. */
export const MAX_XML_NAMESPACES = 256;
