/**
 * The optional `description` containers of Identify (OAI-PMH 2.0 section
 * 4.2) that a repository declares in its configuration, built with
 * xmlbuilder2 from plain values:
 *
 * - `eprints` (the e-print community's description, eprints.xsd):
 *   content, metadata, data and submission policies, each text and/or URLs;
 * - `friends` (Implementation Guidelines, "friends"): base URLs of other
 *   repositories, for harvesters that discover repositories;
 * - `branding` (Implementation Guidelines, "branding"): a collection icon and
 *   stylesheets that render a metadata format;
 * - `rightsManifest` (Implementation Guidelines, "rights", section 3): the
 *   rights that apply to all the metadata the repository disseminates,
 *   by reference.
 *
 * Each builder returns one serialized element (what ResponseBody's
 * `descriptions` splices). Structure is checked here; the published XSDs are
 * checked by the server at start-up.
 */
import { create } from 'xmlbuilder2';
import type { XMLBuilder } from 'xmlbuilder2/lib/interfaces';
import { attr, text } from '../xml/builder-text';
import { XMLNS_NS as XMLNS, XSI_NS as XSI } from '../xml/namespaces';

/** Text and/or URLs (eprints.xsd `TextURLType`). */
export interface TextAndUrls {
  readonly text?: readonly string[];
  readonly url?: readonly string[];
}

/** The eprints description; metadataPolicy and dataPolicy are required by eprints.xsd. */
export interface EprintsDescription {
  readonly content?: TextAndUrls;
  readonly metadataPolicy: TextAndUrls;
  readonly dataPolicy: TextAndUrls;
  readonly submissionPolicy?: TextAndUrls;
  readonly comment?: readonly string[];
}

/** The branding description (branding.xsd). */
export interface BrandingDescription {
  readonly collectionIcon?: {
    readonly url: string;
    readonly link?: string;
    readonly title?: string;
    readonly width?: number;
    readonly height?: number;
  };
  readonly metadataRendering?: readonly { readonly url: string; readonly metadataNamespace: string; readonly mimeType: string }[];
}

/** Every description a configuration can declare, by its configuration key. */
export interface IdentifyDescriptions {
  readonly eprints?: EprintsDescription;
  readonly friends?: readonly string[];
  readonly branding?: BrandingDescription;
  /** URIs of rights statements (e.g. a Creative Commons licence) that apply to all metadata. */
  readonly rightsManifest?: readonly string[];
}

/** The namespace and published schema of each description, by configuration key. */
export const DESCRIPTION_SCHEMAS = {
  eprints: { namespace: 'http://www.openarchives.org/OAI/1.1/eprints', schema: 'http://www.openarchives.org/OAI/1.1/eprints.xsd', root: 'eprints' },
  friends: { namespace: 'http://www.openarchives.org/OAI/2.0/friends/', schema: 'http://www.openarchives.org/OAI/2.0/friends.xsd', root: 'friends' },
  branding: { namespace: 'http://www.openarchives.org/OAI/2.0/branding/', schema: 'http://www.openarchives.org/OAI/2.0/branding.xsd', root: 'branding' },
  rightsManifest: {
    namespace: 'http://www.openarchives.org/OAI/2.0/rights/',
    schema: 'http://www.openarchives.org/OAI/2.0/rightsManifest.xsd',
    root: 'rightsManifest',
  },
} as const;

export type DescriptionKey = keyof typeof DESCRIPTION_SCHEMAS;

/** The root element of a description, with its namespace and schemaLocation. */
function root(key: DescriptionKey): XMLBuilder {
  const s = DESCRIPTION_SCHEMAS[key];
  return create().ele(s.namespace, s.root).att(XMLNS, 'xmlns:xsi', XSI).att(XSI, 'xsi:schemaLocation', `${s.namespace} ${s.schema}`);
}

/**
 * The eprints description.
 *
 * @example eprintsDescription({ metadataPolicy: { text: ['CC0'] }, dataPolicy: { url: ['https://example.org/policy'] } })
 */
export function eprintsDescription(d: EprintsDescription): string {
  const r = root('eprints');
  const ns = DESCRIPTION_SCHEMAS.eprints.namespace;
  const part = (name: string, v: TextAndUrls | undefined): void => {
    if (v === undefined) return;
    const el = r.ele(ns, name);
    for (const u of v.url ?? []) text(el.ele(ns, 'URL'), u);
    for (const t of v.text ?? []) text(el.ele(ns, 'text'), t);
  };
  // eprints.xsd: content, metadataPolicy, dataPolicy, submissionPolicy, comment, in this order.
  part('content', d.content);
  part('metadataPolicy', d.metadataPolicy);
  part('dataPolicy', d.dataPolicy);
  part('submissionPolicy', d.submissionPolicy);
  for (const c of d.comment ?? []) text(r.ele(ns, 'comment'), c);
  return r.end({ headless: true });
}

/**
 * The friends description: other repositories' base URLs.
 *
 * @example friendsDescription(['http://arXiv.org/oai2'])
 */
export function friendsDescription(baseUrls: readonly string[]): string {
  const r = root('friends');
  for (const u of baseUrls) text(r.ele(DESCRIPTION_SCHEMAS.friends.namespace, 'baseURL'), u);
  return r.end({ headless: true });
}

/**
 * The branding description.
 *
 * @example brandingDescription({ collectionIcon: { url: 'https://example.org/icon.png', width: 88, height: 31 } })
 */
export function brandingDescription(d: BrandingDescription): string {
  const r = root('branding');
  const ns = DESCRIPTION_SCHEMAS.branding.namespace;
  const icon = d.collectionIcon;
  if (icon) {
    const el = r.ele(ns, 'collectionIcon');
    // branding.xsd collectionIconType: url, link, title, width, height, in this order.
    text(el.ele(ns, 'url'), icon.url);
    if (icon.link !== undefined) text(el.ele(ns, 'link'), icon.link);
    if (icon.title !== undefined) text(el.ele(ns, 'title'), icon.title);
    if (icon.width !== undefined) text(el.ele(ns, 'width'), String(icon.width));
    if (icon.height !== undefined) text(el.ele(ns, 'height'), String(icon.height));
  }
  for (const m of d.metadataRendering ?? []) {
    const el = r.ele(ns, 'metadataRendering');
    attr(el, 'metadataNamespace', m.metadataNamespace);
    attr(el, 'mimeType', m.mimeType);
    text(el, m.url);
  }
  return r.end({ headless: true });
}

/**
 * The rights manifest: statements by reference that apply to all the
 * metadata (rights guidelines section 3; `appliesTo` allows only
 * `entity#metadata`).
 *
 * @example rightsManifestDescription(['http://creativecommons.org/publicdomain/zero/1.0/'])
 */
export function rightsManifestDescription(refs: readonly string[]): string {
  const r = root('rightsManifest').att('appliesTo', 'http://www.openarchives.org/OAI/2.0/entity#metadata');
  const ns = DESCRIPTION_SCHEMAS.rightsManifest.namespace;
  for (const ref of refs) attr(r.ele(ns, 'rights').ele(ns, 'rightsReference'), 'ref', ref);
  return r.end({ headless: true });
}

/**
 * Every configured description, serialized, by key, in the order Identify
 * shows them (after `oai-identifier`).
 *
 * @example describeRepository({ friends: ['http://arXiv.org/oai2'] }) // [['friends', '<friends …>…</friends>']]
 */
export function describeRepository(d: IdentifyDescriptions): [DescriptionKey, string][] {
  const out: [DescriptionKey, string][] = [];
  if (d.eprints) out.push(['eprints', eprintsDescription(d.eprints)]);
  if (d.friends) out.push(['friends', friendsDescription(d.friends)]);
  if (d.branding) out.push(['branding', brandingDescription(d.branding)]);
  if (d.rightsManifest) out.push(['rightsManifest', rightsManifestDescription(d.rightsManifest)]);
  return out;
}
