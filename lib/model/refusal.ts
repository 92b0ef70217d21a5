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
}
