/**
 * Why a record was refused, in the words a repository manager can act on:
 * which record (its internal id, and where it was read), which field, and
 * the reason. Every stage that judges a record says it this way.
 */

/** Why one record was refused: the record, the field and the reason, for a message a person can act on. */
export interface Refusal {
  readonly internalId: string;
  readonly source?: string;
  readonly field: string;
  readonly reason: string;
  /**
   * A cause many records share, which one change outside them mends (a metadata format the
   * configuration does not declare): refusals with the same cause are reported once, with the
   * remedy, and counted, rather than repeated for each record.
   */
  readonly cause?: string;
}

/**
 * Why a record whose metadata is in a format the configuration does not know is refused, with how
 * to declare it (docs/configuration.md#formats); `prefix` as the input names it (a request's
 * metadataPrefix, a record's `metadata` key), `namespace` as its XML says, either unknown.
 *
 * @example undeclaredFormat('nsdl_dc', 'http://ns.nsdl.org/nsdl_dc_v1.02/').cause // 'format nsdl_dc'
 */
export function undeclaredFormat(prefix: string | undefined, namespace: string | undefined): { reason: string; cause: string } {
  const name = prefix ?? 'PREFIX';
  const ns = namespace !== undefined && namespace !== '' ? namespace : undefined;
  const what = [prefix !== undefined && `metadataPrefix ${JSON.stringify(prefix)}`, ns !== undefined && `namespace ${JSON.stringify(ns)}`]
    .filter((x) => x !== false)
    .join(', ');
  const remedy =
    `declare it in the configuration file: formats: [{prefix: ${name}, namespace: ${ns ?? 'NAMESPACE'}, ` +
    `schema: URL of its XSD, xsd: a local copy of that XSD}] (listing the built-in formats you offer beside it; docs/configuration.md#formats)`;
  return {
    reason: `no metadata format of this repository is ${what === '' ? 'given' : `the one of ${what}`}: ${remedy}`,
    cause: `format ${prefix ?? ns ?? ''}`,
  };
}
