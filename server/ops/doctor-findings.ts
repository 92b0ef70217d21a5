/**
 * What a doctor check finds and is given: findings by severity, the context
 * every check may look at, the report (./doctor.ts runs the checks).
 */
import type { Config } from '../config';
import { databaseKind } from '../db/connection';
import type { MigrationStatus, RepositoryStore } from '../../lib/store';
import { type StoreInspection } from '../store/database';

/** How a finding weighs. */
export type Severity = 'ok' | 'warning' | 'problem';

/** One thing the doctor found. */
export interface Finding {
  /** The check it belongs to: `configuration`, `store`, `schema`, … */
  readonly check: string;
  readonly severity: Severity;
  /** One line for a person. */
  readonly message: string;
  /** Figures behind the message, for `--json`. */
  readonly data?: Readonly<Record<string, unknown>>;
}

/** What every check may look at. */
export interface DoctorContext {
  readonly config: Config;
  /**
   * The store, when it exists and answers (see the `store` check); null otherwise.
   * Opened read-only in spirit: no check writes.
   */
  store(): RepositoryStore | null;
  /** The schema's migrations when the store exists and answers; null otherwise. */
  readonly migrations: MigrationStatus | null;
  /** Migrations still to apply (empty when the schema is current, or when there is no store). */
  readonly pendingMigrations: readonly string[];
  /**
   * What the checks for damage read (../store/inspect.ts), when the store
   * exists, answers and its schema is this code's (no migration pending or
   * unknown); null otherwise.
   */
  readonly inspection: StoreInspection | null;
  /** `--quick`: the stored records and identifiers are sampled rather than read whole. */
  readonly quick: boolean;
}

/** One check: what it finds in a context. */
export type DoctorCheck = (ctx: DoctorContext) => Promise<readonly Finding[]>;

/** What `doctor` reports. */
export interface DoctorReport {
  /** False when any finding is a problem. */
  readonly ok: boolean;
  /**
   * Set when the store is one every command refuses (exit status 2, as they
   * do): none where the configuration points, or one a newer oai-steward
   * migrated. The findings still say everything the doctor could look at.
   */
  readonly refused: 'missing' | 'newer' | null;
  readonly findings: readonly Finding[];
}

export const ok = (check: string, message: string, data?: Record<string, unknown>): Finding => ({ check, severity: 'ok', message, ...(data && { data }) });

export const warning = (check: string, message: string, data?: Record<string, unknown>): Finding => ({
  check,
  severity: 'warning',
  message,
  ...(data && { data }),
});

export const problem = (check: string, message: string, data?: Record<string, unknown>): Finding => ({
  check,
  severity: 'problem',
  message,
  ...(data && { data }),
});

/** Hides a password in a database URL. */
export function redactUrl(url: string): string {
  return url.replace(/\/\/([^:/@]+):[^@]*@/, '//$1:***@');
}

/** What undoes damage done to a store outside oai-steward: its last backup. */
export function restoreAdvice(config: Config): string {
  return databaseKind(config.databaseUrl) === 'postgres'
    ? 'restore the last backup (pg_restore, docs/operations.md#backup-and-restore)'
    : 'restore the last backup (oai-steward restore FILE)';
}

/** At most `n` examples, for a line a person reads. */
export const firstOf = (examples: readonly string[], n = 3): string => examples.slice(0, n).join('; ');
