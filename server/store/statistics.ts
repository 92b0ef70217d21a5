/**
 * When a long write tells the database's planner how large it has made its
 * tables. On PostgreSQL a statement's plan made while the tables were
 * nearly empty scans them whole once they have grown: autovacuum cannot see
 * into a load's one transaction, and analyzes a harvest's committed pages
 * only after its naptime, while the plans prepared for the first pages are
 * kept. So a write refreshes the statistics (`refreshStatistics`, ANALYZE)
 * each time the items it has written double, from {@link FIRST_STATISTICS_REFRESH}:
 * about log2(n / 1,000) times for n items.
 */

/** Items a write makes before the planner first hears how large its tables have grown (then each doubling). */
export const FIRST_STATISTICS_REFRESH = 1000;

/** Counts the items a write has made and says when the statistics are due. */
export class StatisticsSchedule {
  private written = 0;
  private next = FIRST_STATISTICS_REFRESH;

  /**
   * Counts `added` items; true when they take the count to the next doubling.
   *
   * @example const s = new StatisticsSchedule(); s.due(999) // false; s.due(1) // true; s.due(999) // false
   */
  due(added: number): boolean {
    this.written += added;
    if (this.written < this.next) return false;
    while (this.next <= this.written) this.next *= 2;
    return true;
  }
}
