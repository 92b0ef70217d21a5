/**
 * What one harvest run learns of its source's sets, so that the sets the
 * source no longer has are retired when the run ends (lib/store/
 * `retireGoneSourceSets`): a source whose sets churn would otherwise keep
 * every set it ever named, listed by ListSets for ever, and its records in
 * sets the source dropped. The sets a source has are those its ListSets
 * names (OAI-PMH 2.0 section 4.6); a record naming one it does not list
 * keeps that set too, since the protocol gives no better witness.
 *
 * The run can tell only when it read the whole ListSets and harvested every
 * list to its end: a ListSets cut short (over a cap, a fault, a circle,
 * `limits.sets`) or a run stopped early says nothing of the sets it did not
 * reach, and then nothing is retired. `noSetHierarchy` is not taken as
 * "no sets any more" either: one answer of a repository in trouble must not
 * take every member out of every set.
 */
import type { ItemInput } from '../../lib/store';

export class SourceSets {
  private readonly kept = new Set<string>();
  private complete = false;
  private overflowed = false;

  /** `bound`: the most specs kept in mind (`limits.sets`); past it the run cannot tell, and retires nothing. */
  constructor(private readonly bound: number) {}

  /** Specs a ListSets page named (as this store declares them, `source:NAME:…`). */
  listed(specs: readonly string[]): void {
    for (const s of specs) this.keep(s);
  }

  /** The ListSets was read to its end, having named at least one set. */
  listEnded(): void {
    this.complete = this.kept.size > 0;
  }

  /** The sets a page's records are in. */
  named(items: readonly ItemInput[]): void {
    for (const i of items) for (const s of i.sets ?? []) this.keep(s);
  }

  /** The sets the source still has, or null when this run cannot tell (then none is retired). */
  stillHas(): ReadonlySet<string> | null {
    return this.complete && !this.overflowed ? this.kept : null;
  }

  private keep(spec: string): void {
    if (this.kept.has(spec)) return;
    // Records may name sets the ListSets did not: twice the bound of a list leaves them room.
    if (this.kept.size >= 2 * this.bound) {
      this.overflowed = true;
      return;
    }
    this.kept.add(spec);
  }
}
