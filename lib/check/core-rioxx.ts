/**
 * What CORE reads of a UK repository beyond oai_dc: the RIOXX v3.0 record
 * (https://www.rioxx.net/profiles/v3-0-final/), which CORE harvests as
 * `rioxx`. An item whose record lacks one of RIOXX's mandatory properties is
 * not disseminated as rioxx at all (lib/formats/rioxx.ts `rioxxLacks`): these
 * rules name each such item and what it lacks. The title and the creator,
 * mandatory in RIOXX too, are the core profile's own title and creator rules.
 *
 * The rules are recommended, not mandatory: CORE harvests oai_dc from every
 * repository and RIOXX where a repository offers it, so a repository that
 * does not is not failed for it.
 *
 * Pure: no I/O, no clock.
 */
import { landingPage, rioxxType } from '../formats/rioxx';
import { fileLinks, languages, licences } from '../model/facts';
import { citationIdentifier } from '../model/citation-facts';
import type { CheckItem, Finding, ProfileRule } from './profiles';

const RIOXX = 'RIOXX v3.0 application profile';

const live = (i: CheckItem): boolean => !i.deleted;
const missing = (field: string, what: string): Finding => ({ field, reason: `missing: ${what}` });

/**
 * The landing page RIOXX's dc:identifier must be: an http(s) URL of the
 * record that is not its persistent identifier (the PID is dc:relation
 * rel="cite-as") nor one of its files.
 */
function landing(i: CheckItem): Finding | null {
  if (landingPage(i.fields) !== undefined) return null;
  const pid = citationIdentifier(i.fields);
  if (pid !== undefined)
    return { field: 'dc.identifier', reason: `PID only: ${pid.uri} is the persistent identifier, not a landing page (an http(s) URL of the record)` };
  return missing('dc.identifier', 'a landing page (an http(s) URL of the record, not a PID or a file)');
}

/** The RIOXX rules of the core profile, in the order CORE's documentation names them. */
export function rioxxRules(core: string): ProfileRule[] {
  return [
    {
      id: 'rioxx-landing-page',
      source: `${core}: RIOXX, ${RIOXX}, dc:identifier (M), the landing page, not the PID`,
      level: 'recommended',
      applies: live,
      check: landing,
    },
    {
      id: 'rioxx-language',
      source: `${core}: RIOXX, ${RIOXX}, dc:language (M)`,
      level: 'recommended',
      applies: live,
      check: (i) => (languages(i.fields).length > 0 ? null : missing('language', 'a language (dc:language)')),
    },
    {
      id: 'rioxx-type',
      source: `${core}: RIOXX, ${RIOXX}, dc:type (M), a COAR resource type`,
      level: 'recommended',
      applies: live,
      check: (i) => (rioxxType(i.fields) !== undefined ? null : missing('resourceType', 'a COAR resource type (dc:type)')),
    },
    {
      id: 'file-licence',
      source: `${core}: RIOXX, ${RIOXX}, dc:relation rel="item" @license_ref, a file link with its licence`,
      level: 'recommended',
      applies: (i) => live(i) && fileLinks(i.fields).length > 0,
      check: (i) => (licences(i.fields).length > 0 ? null : missing('license', `a licence URL for its files (${fileLinks(i.fields)[0]?.href ?? ''})`)),
    },
  ];
}
