/**
 * How a KnexStore (./knex-store.ts) is made: its database, id policy, formats
 * and their checks, replication, clock, sources, set rules and how written
 * formats are kept.
 */
import type { Knex } from 'knex';
import { type FormatChecks } from '../../lib/pipeline/judge';
import type { IdPolicyLike, SchemeCheck } from '../../lib/pipeline/governance';
import type { OaiDcProfile } from '../../lib/formats/oai-dc-profile';
import { type FormatRegistry } from '../../lib/formats/registry';
import type { SetDefinitions } from '../../lib/sets/rules';
import type { Replication } from './replication';

/** How a KnexStore is made. */
export interface KnexStoreOptions {
  /** A knex instance or transaction on a migrated database (server/db/migrations). */
  readonly knex: Knex;
  /** The id policy (lib/ids/policy.ts `createIdPolicy`); its namespace is the repository's. */
  readonly policy: IdPolicyLike;
  /**
   * The formats offered (lib/formats/registry.ts), with their options: the
   * pipeline lifts XML with their readers and writes every one a record's
   * model allows. Default: oai_dc alone.
   */
  readonly formats?: FormatRegistry;
  /**
   * The metadata check of each format (server/xsd/format-checks.ts
   * `createXsdChecks`): a prefix without a check is refused as unknown.
   * Default: none, so given metadata is only checked to be one well-formed element.
   */
  readonly formatChecks?: FormatChecks;
  /** The primary this store's reads follow (a read replica's store, or a primary's whose tokens carry positions): ./replication.ts. */
  readonly replication?: Replication;
  /** Seconds since the epoch, UTC; defaults to the system clock. */
  readonly clock?: () => number;
  /** The names of the configured harvest sources: each owns the id space `NAME:` (lib/pipeline/governance.ts). */
  readonly sources?: readonly string[];
  /**
   * The formats every tombstone is listed under, besides those it had: the
   * formats the repository offers (server/provider.ts passes them all), so a
   * harvester of any format learns of the deletion (OAI-PMH 2.0 section
   * 2.5.1). Default `['oai_dc']`: section 3.4 requires every item to be
   * disseminable in oai_dc.
   */
  readonly tombstonePrefixes?: readonly string[];
  /** Override the identifier schemes governance checks (tests). */
  readonly schemes?: readonly SchemeCheck[];
  /** Add a rights about container to records whose model states a licence (lib/pipeline/prepare.ts). Default false. */
  readonly rightsInAbout?: boolean;
  /**
   * The sets of the configuration (server/config.ts `sets`): every live item
   * written is put into the rule sets it satisfies (and taken out of those it
   * no longer does), so rule sets are written, stamped and left like the
   * sets records name; the sets are declared as items join them. Default: none.
   */
  readonly setRules?: SetDefinitions;
  /** oai_dc's profile (lib/formats/oai-dc-profile.ts). Default `plain`. */
  readonly oaiDcProfile?: OaiDcProfile;
  /** Which given format a model is lifted from first (lib/pipeline/lift.ts). */
  readonly liftOrder?: readonly string[];
  /** Whether oai_dc carries each item's POI as a dc:identifier. Default false. */
  readonly poiInDublinCore?: boolean;
  /**
   * `stored`: every format is stored as written. `on-demand`: the formats the
   * pipeline writes from a model, those `storedFormats` names apart, are
   * written again when asked for; the model, the XML a record gave and those
   * formats are stored (./on-demand.ts). Either way, what an earlier write
   * left on demand is read on demand. Default `stored`.
   */
  readonly writtenFormats?: 'stored' | 'on-demand';
  /** With `writtenFormats: on-demand`, the written formats stored all the same. Default `['oai_dc']`. */
  readonly storedFormats?: readonly string[];
}
