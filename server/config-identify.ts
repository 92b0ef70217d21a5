/**
 * The `identify` section of the configuration file: the description
 * containers Identify carries besides `oai-identifier` (lib/oai/descriptions.ts).
 * Checked here for shape, with messages naming the line and the key; the
 * built XML is then checked against the published XSDs at start-up.
 *
 * ```yaml
 * identify:
 *   eprints:
 *     content: { text: Theses and articles of Example University, url: https://example.edu/about }
 *     metadataPolicy: { text: Metadata may be re-used under CC0., url: https://creativecommons.org/publicdomain/zero/1.0/ }
 *     dataPolicy: { url: https://example.edu/data-policy }
 *     submissionPolicy: { text: Members of the university deposit their own work. }
 *     comment: [Contact the library for bulk access.]
 *   friends: [http://export.arxiv.org/oai2]
 *   branding:
 *     collectionIcon: { url: https://example.edu/icon.png, link: https://example.edu/, title: Example, width: 88, height: 31 }
 *     metadataRendering:
 *       - { url: https://example.edu/dc.css, metadataNamespace: http://www.openarchives.org/OAI/2.0/oai_dc/, mimeType: text/css }
 *   rightsManifest: [https://creativecommons.org/publicdomain/zero/1.0/]
 * ```
 */
import type { BrandingDescription, EprintsDescription, IdentifyDescriptions, TextAndUrls } from '../lib/oai/descriptions';

type Path = readonly (string | number)[];

/** Thrown with the path of the offending value; config.ts turns the path into a line. */
export class ShapeError extends Error {
  constructor(
    readonly path: Path,
    problem: string,
  ) {
    super(problem);
  }
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** An absolute URI, as the schemas' anyURI fields need for a link to work. */
const ABSOLUTE_URI = /^[A-Za-z][A-Za-z0-9+.-]*:[^\s<>"{}|\\^`]+$/;

function mapping(v: unknown, path: Path, keys: readonly string[], required: readonly string[] = []): Record<string, unknown> {
  if (!isRecord(v)) throw new ShapeError(path, `must be a mapping with ${keys.join(', ')}`);
  for (const k of Object.keys(v)) if (!keys.includes(k)) throw new ShapeError([...path, k], `is not a key here (known: ${keys.join(', ')})`);
  for (const k of required) if (v[k] === undefined || v[k] === null) throw new ShapeError(path, `needs "${k}"`);
  return v;
}

function string(v: unknown, path: Path): string {
  if (typeof v !== 'string' || v.trim() === '') throw new ShapeError(path, 'must be a non-empty string');
  return v;
}

function uri(v: unknown, path: Path): string {
  const s = string(v, path);
  if (!ABSOLUTE_URI.test(s)) throw new ShapeError(path, `${JSON.stringify(s)} is not an absolute URI`);
  return s;
}

/** An absolute http(s) URL: what a harvester or a person follows (a link of another scheme is refused). */
function url(v: unknown, path: Path): string {
  const s = uri(v, path);
  if (!/^https?:\/\/[^/?#\s]+/i.test(s)) throw new ShapeError(path, `${JSON.stringify(s)} is not an http:// or https:// URL`);
  return s;
}

/** A value or a list of values. */
function many<T>(v: unknown, path: Path, one: (x: unknown, p: Path) => T): T[] {
  if (Array.isArray(v)) return v.map((x, i) => one(x, [...path, i]));
  return [one(v, path)];
}

function textAndUrls(v: unknown, path: Path): TextAndUrls {
  const m = mapping(v, path, ['text', 'url']);
  if (m.text === undefined && m.url === undefined) throw new ShapeError(path, 'needs "text", "url" or both');
  return {
    ...(m.text !== undefined && { text: many(m.text, [...path, 'text'], string) }),
    ...(m.url !== undefined && { url: many(m.url, [...path, 'url'], url) }),
  };
}

function positive(v: unknown, path: Path): number {
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 1) throw new ShapeError(path, 'must be a whole number of pixels');
  return v;
}

function eprints(v: unknown, path: Path): EprintsDescription {
  // eprints.xsd: metadataPolicy and dataPolicy are required, the rest optional.
  const m = mapping(v, path, ['content', 'metadataPolicy', 'dataPolicy', 'submissionPolicy', 'comment'], ['metadataPolicy', 'dataPolicy']);
  return {
    ...(m.content !== undefined && { content: textAndUrls(m.content, [...path, 'content']) }),
    metadataPolicy: textAndUrls(m.metadataPolicy, [...path, 'metadataPolicy']),
    dataPolicy: textAndUrls(m.dataPolicy, [...path, 'dataPolicy']),
    ...(m.submissionPolicy !== undefined && { submissionPolicy: textAndUrls(m.submissionPolicy, [...path, 'submissionPolicy']) }),
    ...(m.comment !== undefined && { comment: many(m.comment, [...path, 'comment'], string) }),
  };
}

function branding(v: unknown, path: Path): BrandingDescription {
  const m = mapping(v, path, ['collectionIcon', 'metadataRendering']);
  const out: { -readonly [K in keyof BrandingDescription]: BrandingDescription[K] } = {};
  if (m.collectionIcon !== undefined) {
    const p = [...path, 'collectionIcon'];
    const icon = mapping(m.collectionIcon, p, ['url', 'link', 'title', 'width', 'height'], ['url']);
    out.collectionIcon = {
      url: url(icon.url, [...p, 'url']),
      ...(icon.link !== undefined && { link: url(icon.link, [...p, 'link']) }),
      ...(icon.title !== undefined && { title: string(icon.title, [...p, 'title']) }),
      ...(icon.width !== undefined && { width: positive(icon.width, [...p, 'width']) }),
      ...(icon.height !== undefined && { height: positive(icon.height, [...p, 'height']) }),
    };
  }
  if (m.metadataRendering !== undefined) {
    out.metadataRendering = many(m.metadataRendering, [...path, 'metadataRendering'], (x, p) => {
      const r = mapping(x, p, ['url', 'metadataNamespace', 'mimeType'], ['url', 'metadataNamespace', 'mimeType']);
      const mimeType = string(r.mimeType, [...p, 'mimeType']);
      // branding.xsd: mimeType matches [a-z]+/[a-z]+ (text/css, text/xsl).
      if (!/^[a-z]+\/[a-z]+$/.test(mimeType)) throw new ShapeError([...p, 'mimeType'], `${JSON.stringify(mimeType)} is not a media type like text/css`);
      return { url: url(r.url, [...p, 'url']), metadataNamespace: uri(r.metadataNamespace, [...p, 'metadataNamespace']), mimeType };
    });
  }
  return out;
}

/**
 * Reads the `identify` section (its plain value) into the descriptions;
 * throws a {@link ShapeError} whose path starts below `identify`.
 *
 * @example readIdentify({ friends: ['http://export.arxiv.org/oai2'] }) // { friends: ['http://export.arxiv.org/oai2'] }
 */
export function readIdentify(v: unknown): IdentifyDescriptions {
  const m = mapping(v, [], ['eprints', 'friends', 'branding', 'rightsManifest']);
  return {
    ...(m.eprints !== undefined && { eprints: eprints(m.eprints, ['eprints']) }),
    ...(m.friends !== undefined && { friends: many(m.friends, ['friends'], url) }),
    ...(m.branding !== undefined && { branding: branding(m.branding, ['branding']) }),
    ...(m.rightsManifest !== undefined && { rightsManifest: many(m.rightsManifest, ['rightsManifest'], url) }),
  };
}
