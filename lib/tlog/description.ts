/**
 * The Identify description of the publication log (OAI-PMH 2.0 section
 * 4.2: a repository describes itself in any schema-valid container): where
 * the log is, its origin, the key its checkpoints are signed with and the
 * format of its entries, so a harvester finds and checks the log from
 * Identify alone. Its schema is schemas/publication-log.xsd.
 *
 * Pure: every value is given.
 */
import { escapeText, escapeAttr } from '../xml/chars';
import { XSI_NS } from '../xml/namespaces';
import { ENTRY_MAGIC } from './entry';

/** The description's namespace. */
export const LOG_DESCRIPTION_NS = 'https://oai-steward.org/ns/publication-log/1.0/';
/** Where its schema is published (schemas/catalog.xml maps it to schemas/publication-log.xsd). */
export const LOG_DESCRIPTION_SCHEMA = `${LOG_DESCRIPTION_NS}publication-log.xsd`;

/** What the description names. */
export interface LogDescription {
  /** The log's URL, ending in `/`: the checkpoint is `<url>checkpoint`, the tiles `<url>tile/…`. */
  readonly url: string;
  /** The checkpoints' origin line (C2SP tlog-checkpoint). */
  readonly origin: string;
  /** The verifier key of the checkpoints' signatures (C2SP signed-note): `name+id+key`. */
  readonly verifierKey: string;
}

/**
 * The description container.
 *
 * @example logDescription({ url: 'https://x.org/oai/log/', origin: 'x.org/log', verifierKey: 'x.org/log+…' }) // '<publicationLog …>…'
 */
export function logDescription(d: LogDescription): string {
  return (
    `<publicationLog xmlns="${LOG_DESCRIPTION_NS}" xmlns:xsi="${XSI_NS}" xsi:schemaLocation="${escapeAttr(`${LOG_DESCRIPTION_NS} ${LOG_DESCRIPTION_SCHEMA}`)}">` +
    `<url>${escapeText(d.url)}</url><origin>${escapeText(d.origin)}</origin><verifierKey>${escapeText(d.verifierKey)}</verifierKey>` +
    `<entryFormat>${ENTRY_MAGIC}</entryFormat><hashing>RFC 6962</hashing><tiles>C2SP tlog-tiles</tiles>` +
    `<recordHash>SHA-256 of the exclusive XML C14N 1.0 (without comments) of the element inside metadata</recordHash>` +
    `</publicationLog>`
  );
}
