/**
 * OAI-PMH error conditions as values (OAI-PMH 3.6). Verb handlers return
 * them; only the XML writer turns them into `<error>` elements.
 */

/** The eight error codes of OAI-PMH 3.6. */
export type OaiErrorCode =
  'badArgument' | 'badResumptionToken' | 'badVerb' | 'cannotDisseminateFormat' | 'idDoesNotExist' | 'noRecordsMatch' | 'noMetadataFormats' | 'noSetHierarchy';

/** One `<error>`: its code and a sentence for a person. */
export interface OaiError {
  readonly code: OaiErrorCode;
  readonly message: string;
}

/** Makes an error value. Example: `oaiError('badVerb', 'Illegal verb "Foo".')`. */
export function oaiError(code: OaiErrorCode, message: string): OaiError {
  return { code, message };
}

/**
 * Whether the `request` element must drop its attributes for these errors:
 * OAI-PMH 3.2 says so for badVerb and badArgument.
 */
export function hidesRequestArguments(errors: readonly OaiError[]): boolean {
  return errors.some((e) => e.code === 'badVerb' || e.code === 'badArgument');
}
