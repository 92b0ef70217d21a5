/**
 * Small builders shared by the store tests: oai_dc metadata, items, and a
 * clock the test moves by hand.
 */
import type { ItemInput } from '../../lib/store';
import { escapeText } from '../../lib/xml/chars';

/** A minimal oai_dc record with one title (escaped: the write path refuses malformed XML). */
export function dc(title: string): string {
  return (
    '<oai_dc:dc xmlns:oai_dc="http://www.openarchives.org/OAI/2.0/oai_dc/" xmlns:dc="http://purl.org/dc/elements/1.1/"' +
    ' xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"' +
    ' xsi:schemaLocation="http://www.openarchives.org/OAI/2.0/oai_dc/ http://www.openarchives.org/OAI/2.0/oai_dc.xsd">' +
    `<dc:title>${escapeText(title)}</dc:title></oai_dc:dc>`
  );
}

/** A live item with oai_dc metadata; `extra` overrides any field. */
export function item(internalId: string, extra: Partial<ItemInput> = {}): ItemInput {
  return { internalId, metadata: { oai_dc: dc(`Title of ${internalId}`) }, ...extra };
}

/** A clock for the store (seconds) that only moves when told to. */
export class ManualClock {
  constructor(public now = 1_700_000_000) {}
  readonly read = (): number => this.now;
  tick(seconds = 1): number {
    this.now += seconds;
    return this.now;
  }
}
