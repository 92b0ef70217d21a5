/**
 * Readiness rules: what each aggregator's guideline asks of every record,
 * written as pure functions over one item: its record model (typed fields
 * first, their Dublin Core counterparts second, lib/model/facts.ts), the
 * Dublin Core it disseminates as oai_dc (what the oai_dc guidelines judge,
 * made from the model by the oai_dc writer), its header and the formats it
 * is disseminated in. No rule parses XML: a record judged by OpenAIRE v4 is
 * judged by what its model says, whatever format it came in.
 * `oai-steward check --profile NAME` runs a profile's rules over the store
 * and reports, rule by rule, how many records satisfy it and examples of
 * those that do not.
 *
 * Each rule names the guideline section it comes from. Requirement levels
 * are the guidelines' own: M (mandatory) and MA (mandatory if applicable:
 * checked only on the items it applies to, and a failure fails the check)
 * are `mandatory`; R (recommended) is `recommended`. Dates are W3CDTF in
 * every rule, the profile of ISO 8601 the guidelines name; a date that is
 * present but not W3CDTF is reported as malformed, not as missing.
 *
 * Pure: no I/O, no clock.
 */
import type { DublinCore } from '../model/dublin-core';
import type { RecordFields } from '../model/record';
import { base, core, dini, driver, europeana, openaire3, openaire4 } from './profile-definitions';

/** What the rules see of one item. */
export interface CheckItem {
  readonly internalId: string;
  readonly identifier: string;
  /** Seconds since the epoch. */
  readonly datestamp: number;
  readonly deleted: boolean;
  /** The sets the item is in directly. */
  readonly sets: readonly string[];
  /** The record model: as stored, or lifted from the item's stored XML when the store holds none (lib/pipeline/lift.ts `liftStored`). */
  readonly fields: RecordFields;
  /** The Dublin Core the item disseminates as oai_dc, made from its model; absent when it has no oai_dc. */
  readonly oaiDc?: DublinCore;
  /** The metadataPrefixes the item is disseminated in (with metadata: a tombstone has none). */
  readonly formats: readonly string[];
}

/** Why an item fails a rule: the field at fault and the reason. */
export interface Finding {
  readonly field: string;
  readonly reason: string;
}

export type Level = 'mandatory' | 'recommended';

/** One rule of a profile. */
export interface ProfileRule {
  /** Short, stable name (for --json and tests). */
  readonly id: string;
  /** The guideline section, as a reader finds it. */
  readonly source: string;
  readonly level: Level;
  /** Whether the rule concerns the item (MA rules, rules on live items); a rule that does not apply is not counted. */
  readonly applies: (item: CheckItem) => boolean;
  /** Null when the item satisfies the rule. */
  readonly check: (item: CheckItem) => Finding | null;
}

/** A profile: the guideline and its rules. */
export interface Profile {
  readonly name: ProfileName;
  readonly title: string;
  readonly rules: readonly ProfileRule[];
}

export const PROFILE_NAMES = ['openaire4', 'openaire3', 'driver', 'base', 'dini', 'europeana', 'core'] as const;
export type ProfileName = (typeof PROFILE_NAMES)[number];

// ------------------------------------------------------------------ what an item says

// ------------------------------------------------------------------ the profiles

/** Every profile by name. */
export const PROFILES: Readonly<Record<ProfileName, Profile>> = { openaire4, openaire3, driver, base, dini, europeana, core };

// ------------------------------------------------------------------ tallying

/** One rule's result over the records checked. */
export interface RuleResult {
  readonly id: string;
  readonly source: string;
  readonly level: Level;
  /** Items the rule applies to. */
  checked: number;
  /** Of those, items that satisfy it. */
  satisfied: number;
  /** Up to `examples` items that do not: identifier, field, reason. */
  readonly failures: { identifier: string; field: string; reason: string }[];
}

/** A profile's report: every rule, and whether a mandatory one failed. */
export interface CheckReport {
  readonly profile: ProfileName;
  readonly title: string;
  items: number;
  readonly rules: RuleResult[];
  /** True when no mandatory rule failed. */
  passed: boolean;
}

/**
 * A tally that takes items a batch at a time (memory holds the counts and
 * at most `examples` failures per rule, however large the store).
 *
 * @example const t = new CheckTally(PROFILES.dini); t.add(items); t.report().passed
 */
export class CheckTally {
  private readonly result: CheckReport;

  constructor(
    private readonly profile: Profile,
    private readonly examples = 5,
  ) {
    this.result = {
      profile: profile.name,
      title: profile.title,
      items: 0,
      rules: profile.rules.map((r) => ({ id: r.id, source: r.source, level: r.level, checked: 0, satisfied: 0, failures: [] })),
      passed: true,
    };
  }

  /** Runs every rule over a batch of items. */
  add(items: readonly CheckItem[]): void {
    for (const item of items) {
      this.result.items++;
      this.profile.rules.forEach((rule, k) => {
        if (!rule.applies(item)) return;
        const r = this.result.rules[k] as RuleResult;
        r.checked++;
        const finding = rule.check(item);
        if (finding === null) r.satisfied++;
        else if (r.failures.length < this.examples) r.failures.push({ identifier: item.identifier, ...finding });
      });
    }
  }

  /** The report so far. */
  report(): CheckReport {
    this.result.passed = this.result.rules.every((r) => r.level !== 'mandatory' || r.satisfied === r.checked);
    return this.result;
  }
}

/**
 * The report as a table a person reads: one line per rule (its status,
 * satisfied of checked, level, id, guideline section), then up to five
 * records that fail it, each with the field and the reason.
 *
 * @example formatReport(tally.report()) // 'OpenAIRE … v4: 285 records\nFAIL  120/275  mandatory    format-oai_openaire  …'
 */
export function formatReport(r: CheckReport): string {
  const lines = [`${r.title}: ${r.items} record${r.items === 1 ? '' : 's'} checked`, ''];
  const width = Math.max(...r.rules.map((x) => x.id.length), 4);
  const counts = r.rules.map((x) => `${x.satisfied}/${x.checked}`);
  const cw = Math.max(...counts.map((c) => c.length), 5);
  lines.push(`${'status'.padEnd(6)}  ${'ok'.padStart(cw)}  ${'level'.padEnd(11)}  ${'rule'.padEnd(width)}  guideline`);
  r.rules.forEach((x, k) => {
    const status = x.checked === 0 ? 'n/a' : x.satisfied === x.checked ? 'ok' : x.level === 'mandatory' ? 'FAIL' : 'warn';
    lines.push(`${status.padEnd(6)}  ${(counts[k] as string).padStart(cw)}  ${x.level.padEnd(11)}  ${x.id.padEnd(width)}  ${x.source}`);
    for (const f of x.failures) lines.push(`${' '.repeat(8)}${f.identifier}: ${f.field}: ${f.reason}`);
  });
  const failed = r.rules.filter((x) => x.level === 'mandatory' && x.satisfied < x.checked).length;
  lines.push('', r.passed ? 'passed: every mandatory rule is met' : `failed: ${failed} mandatory rule${failed === 1 ? '' : 's'} not met`);
  return `${lines.join('\n')}\n`;
}
