/**
 * Keeping the demo repository out of a real one. Published identifiers are
 * never reused (docs/identifiers.md), so a demo served under a repository's
 * own namespace leaves hundreds of permanent tombstones behind. Three
 * defences:
 *
 * - the demo is loaded only when the configuration allows it (`seedDemo`,
 *   true by default only while no `namespace` is configured, server/config.ts);
 * - a store that holds the demo remembers the namespace it was published
 *   under (the store's `DemoMarkers`, server/store/demo.ts), and `serve` (and `load`) refuse to run
 *   under another namespace, naming the operator's choices;
 * - `oai-steward remove-demo` takes the demo out again: erased entirely while
 *   nothing else was ever published, or turned into tombstones otherwise.
 */
import fs from 'node:fs';
import { parseOaiIdentifier } from '../lib/ids/oai-identifier';
import { ConfigError } from './config';
import { projectPath } from './paths';
import { parseKeyFile } from './log-key';
import type { DemoMarkers, WriteResult } from '../lib/store';

/** What a store holds of the demo repository. */
export interface DemoHolding {
  /** The namespace-identifier the demo's items were published under. */
  readonly namespace: string;
  /** Demo items still live (not tombstones). */
  readonly live: number;
  /** Identifiers ever published that are not the demo's (the registry of every identifier, never deleted). */
  readonly others: number;
}

/**
 * A store that holds the demo under a namespace other than the configured
 * one. A ConfigError: the configuration and the store disagree, and the
 * command stops with the configuration's exit status (2), a message and no
 * stack trace (server/cli.ts).
 */
export class DemoStoreError extends ConfigError {}

/** The internal ids of the demo repository's items (seeds/demo/records.ndjson). */
export function demoInternalIds(file = projectPath('seeds', 'demo', 'records.ndjson')): string[] {
  return fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => (JSON.parse(line) as { id: string }).id);
}

/**
 * What the store holds of the demo, or null when it holds none. A store
 * seeded by this version carries the marker; one seeded before it is
 * recognised by every demo item being there and live.
 */
export async function demoHolding(store: DemoMarkers): Promise<DemoHolding | null> {
  const ids = demoInternalIds();
  const marker = await store.demoNamespace();
  const rows = await store.itemsPresent(ids);
  const live = rows.filter((r) => !r.deleted).length;
  if (marker === null && (ids.length === 0 || live < ids.length)) return null;
  let namespace = marker ?? undefined;
  if (namespace === undefined) {
    const parsed = parseOaiIdentifier(rows[0]?.identifier ?? '');
    if (!parsed.ok || parsed.scheme !== 'oai') return null;
    namespace = parsed.namespace;
  }
  const registered = await store.registeredIdentifiers();
  const demoRegistered = await store.registeredIdentifiers(ids);
  return { namespace, live, others: registered - demoRegistered };
}

/**
 * Refuses, with a {@link DemoStoreError} naming the choices, when the store
 * holds the demo under a namespace other than `namespace`.
 *
 * @example await refuseForeignDemo(p.store, p.config.namespace);
 */
export async function refuseForeignDemo(store: DemoMarkers, namespace: string): Promise<void> {
  const held = await demoHolding(store);
  if (held === null || held.namespace === namespace) return;
  throw new DemoStoreError(
    [
      `this store holds the demo repository (${held.live} live items published under the namespace ${held.namespace}),`,
      `but the configuration names the namespace ${namespace}. Nothing was served or written. Choose one:`,
      held.others === 0
        ? `  - remove the demo (nothing else was published, so it is erased entirely): oai-steward remove-demo`
        : `  - turn the demo's items into tombstones (other records were published, so the demo's identifiers stay as deletions): oai-steward remove-demo --tombstones`,
      `  - start on a new, empty database: point DATABASE_URL (or the file's database) at it`,
      `  - keep serving the demo: configure the namespace ${held.namespace} (or leave namespace unset)`,
      `See docs/demo-repository.md.`,
    ].join('\n'),
  );
}

/**
 * Remembers the namespace the demo was just published under, so that the
 * guard above knows the store holds it (server/provider.ts `seedIfEmpty`).
 *
 * @example await markDemo(p.store, p.config.namespace);
 */
export async function markDemo(store: DemoMarkers, namespace: string): Promise<void> {
  await store.setDemoNamespace(namespace);
}

/** What {@link removeDemo} did. */
export type DemoRemoval =
  | { readonly outcome: 'none' }
  | { readonly outcome: 'erased'; readonly items: number; readonly namespace: string }
  | { readonly outcome: 'tombstoned'; readonly items: number }
  | { readonly outcome: 'refused'; readonly others: number };

/**
 * Takes the demo out of a store. While no identifier other than the demo's
 * was ever published, every item, set and identifier is erased in one
 * transaction, as if the store were new (the demo's identifiers lived under
 * the demo's namespace, or were never meant to be the repository's). Once
 * other records were published, the demo's items can only become
 * tombstones (`tombstones`), so every identifier stays answered
 * (OAI-PMH 2.5.1, deletedRecord persistent); without it, nothing is done.
 */
export async function removeDemo(
  p: { readonly store: DemoMarkers & { deleteItems(ids: readonly string[]): Promise<readonly WriteResult[]> } },
  options: { tombstones?: boolean } = {},
): Promise<DemoRemoval> {
  const held = await demoHolding(p.store);
  if (held === null) return { outcome: 'none' };
  if (held.others === 0) return { outcome: 'erased', items: await p.store.eraseAll(), namespace: held.namespace };
  if (!options.tombstones) return { outcome: 'refused', others: held.others };
  const rows = await p.store.itemsPresent(demoInternalIds());
  const results = await p.store.deleteItems(rows.filter((r) => !r.deleted).map((r) => r.internalId));
  await p.store.setDemoNamespace(null);
  return { outcome: 'tombstoned', items: results.length };
}

/**
 * Removes the publication log key at `file` when it is the erased demo's
 * (named `<namespace>/log` for the demo's namespace): its log is erased with
 * the demo, and a key keeps its name for good (./log-key.ts), so this
 * repository's log needs a new one. Returns whether it removed one.
 *
 * @example forgetDemoKey('/data/oai-steward.sqlite.log-key', 'demo.oai-steward.org') // true
 */
export function forgetDemoKey(file: string | undefined, demoNamespace: string): boolean {
  if (file === undefined || !fs.existsSync(file)) return false;
  const key = parseKeyFile(fs.readFileSync(file, 'utf8'), file);
  if (key.name !== `${demoNamespace}/log`) return false;
  fs.rmSync(file);
  return true;
}
