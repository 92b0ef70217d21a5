/**
 * The knex store, telling a listener when a write has ended: the server
 * drops what it prepared from the store's earlier state
 * (server/http/prefetch.ts) whenever this process writes.
 */
import type { ItemInput, MembershipChange, SetInput, WriteResult } from '../../lib/store';
import { KnexStore } from './knex-store';
import type { KnexStoreOptions } from './knex-store';

/**
 * A {@link KnexStore} that calls `notify` after every write (putSets,
 * writeItems, deleteItems, setMemberships, a whole transaction), whether it committed or
 * failed; reads are the store's own.
 *
 * @example const store = new NotifyingStore({ knex, policy }, () => prefetch.invalidate());
 */
export class NotifyingStore extends KnexStore {
  constructor(
    options: KnexStoreOptions,
    private readonly notify: () => void,
  ) {
    super(options);
  }

  override async transaction<T>(fn: (tx: KnexStore) => Promise<T>): Promise<T> {
    return this.after(super.transaction(fn));
  }

  override async putSets(sets: readonly SetInput[]): Promise<void> {
    return this.after(super.putSets(sets));
  }

  override async writeItems(items: readonly ItemInput[]): Promise<readonly WriteResult[]> {
    return this.after(super.writeItems(items));
  }

  override async deleteItems(internalIds: readonly string[]): Promise<readonly WriteResult[]> {
    return this.after(super.deleteItems(internalIds));
  }

  override async setMemberships(changes: readonly MembershipChange[]): Promise<readonly WriteResult[]> {
    return this.after(super.setMemberships(changes));
  }

  private async after<T>(write: Promise<T>): Promise<T> {
    try {
      return await write;
    } finally {
      this.notify();
    }
  }
}
