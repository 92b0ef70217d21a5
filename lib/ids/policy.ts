/**
 * The mapping policy: how a repository's internal ids become the
 * local-identifiers of its oai-identifiers, and back. Configured per repository; applied wherever records are written
 * and wherever identifiers are read back.
 *
 * Modes:
 * - `opaque`: every internal id is escaped with `escapeLocalIdentifier`
 *   (UTF-8, escape exactly what is neither reserved nor unreserved, `%`
 *   included). Every non-empty, well-formed string maps.
 * - `fedora-pid`: every internal id must be a Fedora PID in normalized form
 *   and is used as the local-identifier as is (a normalized PID is already a
 *   valid local-identifier: `demo:A-B.C_D%3AE` stays readable).
 * - `auto` (the default): a normalized PID is used as is, everything else is
 *   escaped, by the rule below.
 *
 * Why `auto` is injective. Let E be opaque escaping. E is injective (`%` is
 * always escaped, so its output decodes unambiguously) and its image is the
 * set of "escaped forms": local-identifiers whose escapes all encode octets
 * that must be escaped and decode to UTF-8 (`isEscapedForm`). A normalized
 * PID `p` used as is collides with an opaque id exactly when `p` is an
 * escaped form and decodes to a *different* string: `demo:a%20b` (a valid
 * PID) is also E(`demo:a b`). So in `auto` mode:
 *
 *   map(id) = id        (scheme fedora-pid) if id is a normalized PID and
 *                        (id is not an escaped form, or it decodes to itself,
 *                        i.e. holds no `%` at all: then E(id) = id anyway);
 *   map(id) = E(id)     (scheme opaque)     otherwise.
 *   unmap(L) = decode(L) if L is an escaped form;
 *            = L         if L is a normalized PID;
 *            = null      otherwise.
 *
 * `demo:1` → `demo:1`; `demo:A-B.C_D%3AE` → as is (`%3A` escapes `:`, which
 * E never does, so no opaque id can produce it); `demo:a%20b` → `demo:a%2520b`
 * (kept opaque: readable as is would collide with `demo:a b`). A PID that is
 * not normalized (`demo:a%3ab`, `demo%3A1`) is kept opaque in `auto` mode: it
 * is a different string from its normalization, and mapping both to the one
 * normalized PID would map two internal ids to one identifier. In
 * `fedora-pid` mode it is refused for the same reason, with its normalized
 * form in the message so the loader can normalize first. Hence
 * `unmap(map(id)) === id` for every string `map` accepts, in every mode.
 *
 * Refused everywhere: the empty string (a local-identifier has at least one
 * character) and strings with a lone surrogate (no UTF-8 encoding exists, so
 * no identifier could round-trip). Refusal is an {@link IdMappingError}.
 *
 * Pure: no I/O, no clock.
 */
import { isEscapedForm, namespaceIdentifierErrors, parseOaiIdentifier, unescapeLocalIdentifier } from './oai-identifier';
import { escapeLocalIdentifier } from './oai-identifier';
import { parseFedoraPid } from './fedora-pid';
import { isWellFormedUtf16 } from './uric';

/** How internal ids are mapped: see the module comment. */
export type IdMappingMode = 'opaque' | 'fedora-pid' | 'auto';

/** The configuration of one repository's policy. */
export interface IdPolicyOptions {
  /** The namespace-identifier of every oai-identifier the repository publishes (case-sensitive). */
  readonly namespace: string;
  /** Default `auto`. */
  readonly mode?: IdMappingMode;
}

/** The result of mapping one internal id. */
export interface MappedId {
  /** The oai-identifier. */
  readonly identifier: string;
  /** Its local-identifier part. */
  readonly local: string;
  /** How the local-identifier was made: escaped (`opaque`) or a normalized PID used as is. */
  readonly scheme: 'opaque' | 'fedora-pid';
}

/** A configured mapping policy. */
export interface IdPolicy {
  readonly namespace: string;
  readonly mode: IdMappingMode;
  /** Maps an internal id to its oai-identifier; throws {@link IdMappingError} when the mode refuses it. */
  map(internalId: string): MappedId;
  /** The internal id an oai-identifier of this repository was mapped from, or `null` if no internal id maps to it. */
  unmap(identifier: string): string | null;
}

/** Thrown when an internal id cannot be mapped under the configured policy; names the id. */
export class IdMappingError extends Error {
  constructor(
    readonly internalId: string,
    reason: string,
  ) {
    super(`cannot map internal id ${JSON.stringify(internalId)}: ${reason}`);
    this.name = 'IdMappingError';
  }
}

/**
 * Creates a mapping policy for one namespace and mode (see the module
 * comment for the rule and why it is reversible and injective). Throws a
 * `RangeError` for an invalid namespace-identifier or an unknown mode.
 *
 * @example
 * const policy = createIdPolicy({ namespace: 'example.org', mode: 'auto' });
 * policy.map('demo:A-B.C_D%3AE').identifier // 'oai:example.org:demo:A-B.C_D%3AE'
 * policy.map('report 12').identifier        // 'oai:example.org:report%2012'
 * policy.unmap('oai:example.org:report%2012') // 'report 12'
 */
export function createIdPolicy(options: IdPolicyOptions): IdPolicy {
  const namespace = options.namespace;
  const mode: IdMappingMode = options.mode ?? 'auto';
  const nsErrors = namespaceIdentifierErrors(namespace);
  if (nsErrors.length > 0) throw new RangeError(nsErrors.join('; '));
  if (mode !== 'opaque' && mode !== 'fedora-pid' && mode !== 'auto') {
    throw new RangeError(`unknown id mapping mode ${JSON.stringify(mode)} (expected opaque, fedora-pid or auto)`);
  }

  const result = (local: string, scheme: MappedId['scheme']): MappedId => ({ identifier: `oai:${namespace}:${local}`, local, scheme });

  function map(internalId: string): MappedId {
    if (internalId.length === 0) throw new IdMappingError(internalId, 'it is empty (a local-identifier needs at least one character)');
    if (!isWellFormedUtf16(internalId)) {
      throw new IdMappingError(internalId, 'it contains a lone surrogate, which has no UTF-8 encoding, so no identifier could map back to it');
    }
    const pid = parseFedoraPid(internalId);
    if (mode === 'fedora-pid') {
      if (!pid.ok) throw new IdMappingError(internalId, `not a Fedora PID (${pid.errors.join('; ')})`);
      if (!pid.isNormalized) {
        throw new IdMappingError(
          internalId,
          `the PID is not normalized; normalize it to ${JSON.stringify(pid.normalized)} first (two spellings of one PID cannot both be mapped)`,
        );
      }
      return result(internalId, 'fedora-pid');
    }
    if (mode === 'auto' && pid.ok && pid.isNormalized && (!isEscapedForm(internalId) || !internalId.includes('%'))) {
      return result(internalId, 'fedora-pid');
    }
    return result(escapeLocalIdentifier(internalId), 'opaque');
  }

  function unmap(identifier: string): string | null {
    const parsed = parseOaiIdentifier(identifier);
    if (!parsed.ok || parsed.namespace !== namespace) return null;
    const local = parsed.local;
    if (mode !== 'fedora-pid' && isEscapedForm(local)) return unescapeLocalIdentifier(local);
    if (mode !== 'opaque') {
      const pid = parseFedoraPid(local);
      if (pid.ok && pid.isNormalized) return local;
    }
    return null;
  }

  return Object.freeze({ namespace, mode, map, unmap });
}
