/**
 * Scheme recognition and the result objects of the `oai-steward id`
 * command line: other tools depend on these key names, so they are fixed
 * here in one place.
 *
 * Pure: no I/O, no clock.
 */
import { parseOaiIdentifier, toRequestArgument } from './oai-identifier';
import { parsePoi, poiFromOaiIdentifier, POI_PREFIX } from './poi';
import { parseFedoraPid, parseInfoFedora, INFO_FEDORA_PREFIX } from './fedora-pid';
import { parseInfoSid } from './info-sid';
import { parsePdi } from './pdi';
import type { IdPolicy } from './policy';

/** The schemes `id inspect --scheme` accepts. */
export const ID_SCHEMES = ['oai', 'poi', 'fedora-pid', 'info-fedora', 'info-sid', 'pdi'] as const;
/** One of {@link ID_SCHEMES}. */
export type IdScheme = (typeof ID_SCHEMES)[number];

/** The object `id inspect` writes per input line; keys in this order. */
export interface InspectResult {
  input: string;
  /** The scheme checked against: given by `--scheme` or recognised from the prefix; `null` when unrecognised. */
  scheme: IdScheme | null;
  valid: boolean;
  /** The canonical form (for a PDI the lexical-equivalence form); `null` when invalid. */
  normalized: string | null;
  errors: string[];
  /** For a POI: its oai-identifier. */
  oaiIdentifier?: string;
  /** For an oai-identifier: its POI. */
  poi?: string;
  /** For an oai-identifier: its OAI-PMH request-argument encoding. */
  requestArgument?: string;
}

/** The object `id map` and `id unmap` write per input line on success. */
export interface MapResult {
  internalId: string;
  oaiIdentifier: string;
  poi: string;
  requestArgument: string;
}

/** The object `id map` and `id unmap` write for an input they cannot handle. */
export interface MapFailure {
  input: string;
  errors: string[];
}

/**
 * Recognises the scheme of an identifier from its prefix: `oai:`,
 * `http://purl.org/poi/`, `info:fedora/`, `info:sid/`, `urn:pdi:` or `pdi:`
 * (the last three case-insensitively, as their specs say; `oai:` too, so a
 * capitalized scheme is reported as an invalid oai-identifier rather than
 * unrecognised). A string without one of these prefixes is a Fedora PID if it
 * parses as one (PIDs have no prefix), else unrecognised (`null`).
 *
 * @example detectScheme('http://purl.org/poi/arXiv.org/hep-th/9901001') // 'poi'
 * @example detectScheme('demo:1') // 'fedora-pid'
 */
export function detectScheme(s: string): IdScheme | null {
  const lower = s.toLowerCase();
  if (lower.startsWith('oai:')) return 'oai';
  if (s.startsWith(POI_PREFIX)) return 'poi';
  if (lower.startsWith(INFO_FEDORA_PREFIX)) return 'info-fedora';
  if (lower.startsWith('info:sid/')) return 'info-sid';
  if (lower.startsWith('urn:pdi:') || lower.startsWith('pdi:')) return 'pdi';
  if (parseFedoraPid(s).ok) return 'fedora-pid';
  return null;
}

/**
 * Inspects one identifier: validates it by the given scheme (or the one
 * {@link detectScheme} recognises), and gives its canonical form and, for an
 * oai-identifier, its POI and request argument, for a POI its oai-identifier.
 *
 * @example inspectIdentifier('oai:an.oai.org:ab%3Ccd').requestArgument // 'oai%3Aan.oai.org%3Aab%253Ccd'
 */
export function inspectIdentifier(input: string, scheme?: IdScheme): InspectResult {
  const s = scheme ?? detectScheme(input);
  const invalid = (errors: string[]): InspectResult => ({ input, scheme: s, valid: false, normalized: null, errors });
  switch (s) {
    case null:
      return invalid(['unrecognised identifier scheme (expected oai:, http://purl.org/poi/, info:fedora/, info:sid/, urn:pdi: or a Fedora PID)']);
    case 'oai': {
      const p = parseOaiIdentifier(input);
      if (!p.ok) return invalid(p.errors);
      // oai-identifier 2.3: equivalence is string identity, so the identifier is its own canonical form.
      return { input, scheme: s, valid: true, normalized: input, errors: [], poi: poiFromOaiIdentifier(input), requestArgument: toRequestArgument(input) };
    }
    case 'poi': {
      const p = parsePoi(input);
      if (!p.ok) return invalid(p.errors);
      return { input, scheme: s, valid: true, normalized: input, errors: [], oaiIdentifier: p.oaiIdentifier };
    }
    case 'fedora-pid': {
      const p = parseFedoraPid(input);
      return p.ok ? { input, scheme: s, valid: true, normalized: p.normalized, errors: [] } : invalid(p.errors);
    }
    case 'info-fedora': {
      const p = parseInfoFedora(input);
      return p.ok ? { input, scheme: s, valid: true, normalized: p.normalized, errors: [] } : invalid(p.errors);
    }
    case 'info-sid': {
      const p = parseInfoSid(input);
      return p.ok ? { input, scheme: s, valid: true, normalized: p.canonical, errors: [] } : invalid(p.errors);
    }
    case 'pdi': {
      const p = parsePdi(input);
      return p.ok ? { input, scheme: s, valid: true, normalized: p.canonical, errors: [] } : invalid(p.errors);
    }
  }
}

/**
 * Maps one internal id with a policy into the `id map` result object, or a
 * failure object naming the reason.
 *
 * @example mapResult(createIdPolicy({ namespace: 'example.org' }), 'report 12') // { internalId: 'report 12', oaiIdentifier: 'oai:example.org:report%2012', poi: 'http://purl.org/poi/example.org/report%2012', requestArgument: 'oai%3Aexample.org%3Areport%252012' }
 */
export function mapResult(policy: IdPolicy, internalId: string): MapResult | MapFailure {
  try {
    const { identifier } = policy.map(internalId);
    return { internalId, oaiIdentifier: identifier, poi: poiFromOaiIdentifier(identifier), requestArgument: toRequestArgument(identifier) };
  } catch (e) {
    return { input: internalId, errors: [e instanceof Error ? e.message : String(e)] };
  }
}

/**
 * Unmaps one oai-identifier or POI with a policy into the same result object
 * as `id map`, or a failure object. A POI is first turned into its
 * oai-identifier (POI 4).
 *
 * @example unmapResult(createIdPolicy({ namespace: 'example.org' }), 'http://purl.org/poi/example.org/report%2012').internalId // 'report 12'
 */
export function unmapResult(policy: IdPolicy, input: string): MapResult | MapFailure {
  let identifier = input;
  if (input.startsWith(POI_PREFIX)) {
    const p = parsePoi(input);
    if (!p.ok) return { input, errors: p.errors };
    identifier = p.oaiIdentifier;
  } else {
    const p = parseOaiIdentifier(input);
    if (!p.ok) return { input, errors: p.errors };
  }
  const internalId = policy.unmap(identifier);
  if (internalId === null) {
    return { input, errors: [`no internal id maps to ${identifier} under the ${policy.mode} policy of namespace ${policy.namespace}`] };
  }
  return { internalId, oaiIdentifier: identifier, poi: poiFromOaiIdentifier(identifier), requestArgument: toRequestArgument(identifier) };
}
