/**
 * Tolerant where it costs nothing: a record whose given XML its format's
 * schema refuses, where the model read from it is sound, is kept and served
 * in every format written from that model; the XML it gave is kept with the
 * item but never served (a response must stay valid, OAI-PMH 2.0 section
 * 3.2, and the schema says what a harvester of that format may expect). CERN
 * CDS's MARCXML is the case in point: its field 690 carries indicator `C`,
 * outside the pattern `[\da-z ]` of LoC's MARC21slim.xsd, which no MARC
 * reader here uses, so the record's title, creators and dates are what they
 * would be under a valid indicator.
 *
 * "Only in ways the model does not use" is decided, not assumed: the reader
 * of the XML's namespace (../formats/readers.ts) says what it reads as
 * absent (`MetadataFormat.blankUnread`: for MARCXML, an indicator outside
 * LoC's pattern is blank), and the XML written so must pass the same check
 * and lift to the very same model. A record is re-decided so only when every
 * reason it was refused for is such a schema verdict on XML it gave, the XML
 * is one well-formed element, and its model says something. It is then prepared again
 * from that model without the refused formats (so each of them that has a
 * writer is written from the model) and judged again; only if it passes
 * everything, oai_dc included (OAI-PMH 2.0 section 3.4), is it written. A
 * format no reader reads is not withheld: nothing of it reaches the model,
 * so the record is refused with the schema's reasons as before, and so is
 * one whose schema errors lie where the model looks (Alma's MARCXML whose
 * leader lost its spaces, Leader/06 being the record's type) or one refused
 * for anything else.
 *
 * Pure: no I/O, no clock.
 */
import type { ItemInput } from '../store';
import type { Refusal } from '../model/refusal';
import { readerOf } from '../formats/readers';
import { dublinCore } from '../model/facts';
import { checkFragment } from '../xml/fragment';
import { parseFragment } from '../xml/tree';
import { fieldsJson } from '../model/json-text';
import type { FormatCheck, FormatChecks, Judged } from './judge';
import { prepareItem, type Preparation, type PreparedItem, type WithheldFormat } from './prepare';

const FIELD = 'metadata.';

/**
 * The formats of a refused record that may be withheld, with the schema's
 * reasons for each, or null when the record is refused for anything more
 * (see the module's comment).
 *
 * @example withholdable(cdsRecord, refusals, ['marcxml'], checks) // Map { 'marcxml' => ['…ind1…'] }
 */
export function withholdable(
  item: PreparedItem,
  refusals: readonly Refusal[],
  schemaRefused: readonly string[],
  checks: FormatChecks | undefined,
): Map<string, string[]> | null {
  if (item.deleted === true || item.fields === undefined || refusals.length === 0) return null;
  // A model that says nothing was not read from the XML: its title, creators, dates are what a harvester needs.
  if (!Object.values(dublinCore(item.fields)).some((v) => v !== undefined && v.length > 0)) return null;
  const out = new Map<string, string[]>();
  for (const r of refusals) {
    const prefix = r.field.startsWith(FIELD) ? r.field.slice(FIELD.length) : undefined;
    if (prefix === undefined || !schemaRefused.includes(prefix) || item.written.includes(prefix)) return null;
    out.set(prefix, [...(out.get(prefix) ?? []), r.reason]);
  }
  for (const prefix of out.keys()) if (!unreadOnly(item.metadata[prefix] ?? '', checks?.get(prefix))) return null;
  return out;
}

/**
 * Whether XML its format's check refused breaks the schema only where its
 * reader does not look: written with what the reader reads as absent made
 * absent in the schema's terms, it passes `check` and lifts to the same model.
 */
function unreadOnly(xml: string, check: FormatCheck | undefined): boolean {
  const root = parseFragment(xml);
  const reader = root === null ? undefined : readerOf(root.ns);
  if (root === null || reader?.blankUnread === undefined || check === undefined || checkFragment(xml) !== null) return false;
  const blanked = reader.blankUnread(xml);
  const again = parseFragment(blanked);
  if (blanked === xml || again === null || (check.check([blanked])[0] ?? []).length > 0) return false;
  return fieldsJson(reader.read(again)) === fieldsJson(reader.read(root));
}

/**
 * The record prepared again from its model without the formats withheld:
 * every configured format the model allows is written (a withheld format
 * with a writer among them), the model keeps where it was lifted from, and
 * the withheld XML and a note naming the record and the schema's reasons go
 * with it.
 *
 * @example withheldFrom(input, prepared, new Map([['marcxml', ['…']]]), preparation).withheld // [{ prefix: 'marcxml', xml: '<marc:record …', reason: '…' }]
 */
export function withheldFrom(input: ItemInput, prepared: PreparedItem, reasons: ReadonlyMap<string, readonly string[]>, p: Preparation): PreparedItem {
  const metadata = Object.fromEntries(Object.entries(input.metadata).filter(([prefix]) => !reasons.has(prefix)));
  const again = prepareItem({ ...input, metadata, ...(prepared.fields !== undefined && { fields: prepared.fields }) }, p);
  const withheld: WithheldFormat[] = [...reasons].map(([prefix, why]) => ({ prefix, xml: prepared.metadata[prefix] ?? '', reason: why.join('; ') }));
  const who = `record ${JSON.stringify(input.internalId)}${input.source !== undefined ? ` (${input.source})` : ''}`;
  const served = Object.keys(again.metadata).join(', ');
  const notes = withheld.map((w) => ({
    kind: `${w.prefix} refused by its schema, kept but not served`,
    text:
      `${who}: its ${w.prefix} is not valid against that format's schema (${w.reason}); the XML it gave is kept but not served, ` +
      `and the record is served in ${served}, written from ${prepared.liftedFrom === w.prefix ? 'the model read from it' : 'its model'}`,
  }));
  return {
    ...again,
    ...(prepared.liftedFrom !== undefined && { liftedFrom: prepared.liftedFrom }),
    withheld,
    notes: [...(again.notes ?? []), ...notes],
  };
}

/**
 * A judged batch with every record refused only for its given XML's schema
 * (see {@link withholdable}) prepared again without that XML
 * ({@link withheldFrom}) and judged again by `judge` (`checks`: the
 * formats' checks the judge runs); those that pass then
 * take their place among the passed, in the batch's order, and the others
 * keep their first refusals, which say what to fix. `inputs` and `prepared`
 * are the batch as given to the judge and as prepared, index for index.
 *
 * @example const { prepared, judged } = withholdInvalidGiven(current, prepared, judgeRecords(prepared, now, checks), preparation, checks, (b) => judgeRecords(b, now, checks));
 */
export function withholdInvalidGiven(
  inputs: readonly ItemInput[],
  prepared: readonly PreparedItem[],
  judged: Judged,
  p: Preparation,
  checks: FormatChecks | undefined,
  judge: (items: readonly PreparedItem[]) => Judged,
): { prepared: PreparedItem[]; judged: Judged } {
  const retry: { index: number; item: PreparedItem }[] = [];
  judged.refusals.forEach((refusals, index) => {
    const item = prepared[index] as PreparedItem;
    const reasons = withholdable(item, refusals, judged.schemaRefused[index] ?? [], checks);
    if (reasons !== null) retry.push({ index, item: withheldFrom(inputs[index] as ItemInput, item, reasons, p) });
  });
  if (retry.length === 0) return { prepared: [...prepared], judged };
  const again = judge(retry.map((r) => r.item));
  const passedAgain = new Map(again.passed.map((x) => [x.index, x.item]));
  const out = [...prepared];
  const refusals = [...judged.refusals];
  const passed = [...judged.passed];
  retry.forEach((r, k) => {
    const item = passedAgain.get(k);
    if (item === undefined) return;
    out[r.index] = r.item;
    refusals[r.index] = [];
    passed.push({ index: r.index, item });
  });
  passed.sort((a, b) => a.index - b.index);
  return { prepared: out, judged: { refusals, passed, schemaRefused: judged.schemaRefused } };
}
