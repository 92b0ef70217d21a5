/**
 * Namespace URIs and schema locations the provider writes or reads, each
 * written once. Sources: OAI-PMH 2.0 sections 2.5 and 3.2 (the response
 * namespace and schema), section 5 and oai_dc.xsd (Dublin Core), the OAI
 * identifier format guidelines (the `oai-identifier` description), XML
 * Schema Part 1 section 3.2.7 (`xsi`) and Namespaces in XML 1.0 section 3
 * (`xmlns`).
 *
 * @example `<OAI-PMH xmlns="${OAI_NS}" xmlns:xsi="${XSI_NS}">`
 */

/** The OAI-PMH 2.0 namespace of every response (OAI-PMH 3.2). */
export const OAI_NS = 'http://www.openarchives.org/OAI/2.0/';
/** Where the OAI-PMH 2.0 response schema is published. */
export const OAI_SCHEMA = `${OAI_NS}OAI-PMH.xsd`;

/** The `oai_dc` container of unqualified Dublin Core (OAI-PMH 5, oai_dc.xsd). */
export const OAI_DC_NS = `${OAI_NS}oai_dc/`;
/** Where oai_dc.xsd is published. */
export const OAI_DC_SCHEMA = `${OAI_NS}oai_dc.xsd`;
/** The Dublin Core Metadata Element Set, version 1.1. */
export const DC_NS = 'http://purl.org/dc/elements/1.1/';

/** The `oai-identifier` description container of Identify (OAI identifier format, section 3). */
export const OAI_IDENTIFIER_NS = `${OAI_NS}oai-identifier`;
/** Where oai-identifier.xsd is published. */
export const OAI_IDENTIFIER_SCHEMA = `${OAI_NS}oai-identifier.xsd`;

/** XML Schema instance attributes such as `xsi:schemaLocation`. */
export const XSI_NS = 'http://www.w3.org/2001/XMLSchema-instance';

/** The namespace the prefix `xml` is bound to, and no other prefix may be (Namespaces in XML 1.0 section 3). */
export const XML_NAMESPACE = 'http://www.w3.org/XML/1998/namespace';
/** XML Schema itself (`xs:schema`). */
export const XS_NS = 'http://www.w3.org/2001/XMLSchema';
/** The namespace of `xmlns` declarations themselves (Namespaces in XML 1.0 section 3). */
export const XMLNS_NS = 'http://www.w3.org/2000/xmlns/';

/** The `provenance` about container (OAI-PMH implementation guidelines, provenance). */
export const PROVENANCE_NS = `${OAI_NS}provenance`;
/** Where provenance.xsd is published. */
export const PROVENANCE_SCHEMA = `${OAI_NS}provenance.xsd`;
/** The `rights` about container and `rightsManifest` description (OAI-PMH rights guidelines; with its trailing slash). */
export const RIGHTS_NS = `${OAI_NS}rights/`;
/** Where rights.xsd is published. */
export const RIGHTS_SCHEMA = `${OAI_NS}rights.xsd`;
/** Where rightsManifest.xsd is published: the `rightsManifest` root of the rights namespace. */
export const RIGHTS_MANIFEST_SCHEMA = `${OAI_NS}rightsManifest.xsd`;
/** The `branding` description (OAI-PMH implementation guidelines, branding). */
export const BRANDING_NS = `${OAI_NS}branding/`;
export const BRANDING_SCHEMA = `${OAI_NS}branding.xsd`;
/** The `friends` description (OAI-PMH implementation guidelines, friends). */
export const FRIENDS_NS = `${OAI_NS}friends/`;
export const FRIENDS_SCHEMA = `${OAI_NS}friends.xsd`;

/** The Sitemaps 0.9 namespace, of `urlset` and `sitemapindex` (sitemaps.org, the protocol and its two XSDs). */
export const SITEMAP_NS = 'http://www.sitemaps.org/schemas/sitemap/0.9';

/** The ResourceSync namespace of the `rs:md` and `rs:ln` extensions (ResourceSync 1.1 section 4). */
export const RS_NS = 'http://www.openarchives.org/rs/terms/';
