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

/**
 * Why a live record that would be published without oai_dc is refused (OAI-PMH 2.0 section 3.4: every
 * item is available as oai_dc): it gives its metadata only in formats no reader of this repository lifts
 * into the record model, so no oai_dc can be written from it. `given` names each format it gives, with the
 * namespace of its root element when known; records refused for the same formats share the cause.
 *
 * @example withoutOaiDc([{ prefix: 'nsdl_dc', namespace: 'http://ns.nsdl.org/nsdl_dc_v1.02/' }]).cause // 'no oai_dc from nsdl_dc'
 */
export function withoutOaiDc(given: readonly { readonly prefix: string; readonly namespace?: string }[]): { reason: string; cause: string } {
  const what = given.map((g) => (g.namespace !== undefined && g.namespace !== '' ? `${g.prefix} (namespace ${g.namespace})` : g.prefix)).join(', ');
  return {
    reason:
      `the record would be published without oai_dc, which OAI-PMH 2.0 section 3.4 requires of every item: it gives only ${what}, ` +
      'which no reader of this repository lifts into the record model (they read oai_dc, DataCite, OpenAIRE, MODS, MARCXML and EDM, ' +
      'whatever prefix they come under); give its oai_dc beside it (docs/loading.md#no-item-without-oai_dc)',
    cause: `no oai_dc from ${given.map((g) => g.prefix).join(', ')}`,
  };
}
