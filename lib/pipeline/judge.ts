/**
 * Judge, the fourth stage of the write pipeline: the one judgement every
 * prepared record (./prepare.ts) passes before the store plans and writes
 * it, in one order (ARCHITECTURE.md):
 *
 * 1. record rules ({@link recordRefusals}): set specs, metadataPrefixes and
 *    datestamps well-formed, a live item has metadata, XML 1.0 characters only
 *    in the XML a record gives;
 * 2. the metadata check of each format ({@link metadataRefusals}): a
 *    {@link FormatCheck} per metadataPrefix (the server plugs in XSD
 *    validation; lib/ stays free of XML libraries) over the XML a record
 *    gives, then the same one-well-formed-element check the renderer makes on
 *    the way out. What the pipeline's writers made (the item's `written`
 *    prefixes, which only ./prepare.ts sets) skips both: it is escaped from
 *    checked fields and valid by construction, which the writers' tests
 *    prove against the published XSDs; then, a record whose formats all
 *    passed has oai_dc ({@link oaiDcRefusals});
 * 3. identifier governance (./governance.ts `checkBatch`), over the record's
 *    own identifier fields plus the dc:identifier values found inside its
 *    metadata the record gives ({@link withMetadataIdentifiers}; the writers'
 *    identifiers are already among the item's own, ./prepare.ts);
 *    the store gathers the state it needs from the database.
 *
 * A record refused by one stage is not judged by the next: its refusals say
 * what to fix first. Stages 1 and 2 need no database and run here; the store
 * (server/store/) runs stage 3 and refuses the whole batch when any stage
 * refused anything.
 */
import type { SetInput } from '../store';
import type { PreparedItem } from './prepare';
import { withoutOaiDc, type Refusal } from '../model/refusal';
import { parseFragment } from '../xml/tree';
import { checkFragment } from '../xml/fragment';
import { dcIdentifiers } from '../xml/dc-identifiers';
import { isValidMetadataPrefix, isValidSetSpec, withAncestors } from '../model/header';
import { nonXmlChar } from '../model/text';
import { formatDatestamp } from '../oai/dates';

/**
 * The metadata check of one format, batch-wise (an XSD validator compiles
 * its schema once per batch). The formats work registers one per
 * metadataPrefix: schema validation, profile rules, whatever the format needs.
 */
export interface FormatCheck {
  /** Every reason each XML of the batch is refused for, index for index (an empty list: accepted). */
  check(xml: readonly string[]): readonly (readonly string[])[];
  /**
   * The identifier values the format's XML carries, for identifier
   * governance. Default: the dc:identifier elements (rules.ts `dcIdentifiers`)
   * for oai_dc, none for other formats.
   */
  identifiers?(xml: string): readonly string[];
}

/** The format checks of a repository, by metadataPrefix. */
export interface FormatChecks {
  /** The check of a prefix; undefined when the prefix is not in the format registry (the record is refused). */
  get(prefix: string): FormatCheck | undefined;
  /**
   * The check of `about` containers, whatever their namespace (the server
   * validates each against the schema of its namespace). Without it, an
   * about container is only checked to be one well-formed element.
   */
  readonly about?: FormatCheck;
  /**
   * The check of set descriptions (OAI-PMH 2.0 section 4.6: any element of
   * another namespace, valid against its schema). Without it, a description
   * is only checked to be one well-formed element.
   */
  readonly descriptions?: FormatCheck;
}

/**
 * Format checks run one after another for each prefix: the XSD check of the
 * server, then, say, a profile's rules for one format. A prefix is known when
 * the first knows it; the later checks judge only what the earlier passed,
 * so each record gets the reasons of the first check that refused it. The
 * identifiers of a format come from the first check that extracts them.
 *
 * @example chainChecks(createXsdChecks(formats), { get: (p) => (p === 'marc21' ? marcProfileCheck : undefined) })
 */
export function chainChecks(first: FormatChecks, ...more: readonly FormatChecks[]): FormatChecks {
  return {
    ...(first.about && { about: first.about }),
    ...(first.descriptions && { descriptions: first.descriptions }),
    get(prefix) {
      const base = first.get(prefix);
      if (!base) return undefined;
      const chain = [base, ...more.flatMap((c) => c.get(prefix) ?? [])];
      const extractor = chain.find((c) => c.identifiers);
      return {
        check(xml) {
          const reasons: (readonly string[])[] = xml.map(() => []);
          for (const c of chain) {
            const open = xml.flatMap((x, i) => ((reasons[i] as readonly string[]).length === 0 ? [i] : []));
            if (open.length === 0) break;
            const found = c.check(open.map((i) => xml[i] as string));
            open.forEach((i, k) => (reasons[i] = found[k] ?? []));
          }
          return reasons;
        },
        ...(extractor?.identifiers && { identifiers: (xml: string) => extractor.identifiers?.(xml) ?? [] }),
      };
    },
  };
}

/** Who and where of a refusal of one item, without its reason. */
function refusalOf(item: PreparedItem, field: string): { internalId: string; source?: string; field: string } {
  return item.source === undefined ? { internalId: item.internalId, field } : { internalId: item.internalId, source: item.source, field };
}

/** A refusal maker for one item: keeps the record's source in every refusal. */
function refuserOf(item: PreparedItem, into: Refusal[]): (field: string, reason: string) => void {
  return (field, reason) => {
    into.push({ ...refusalOf(item, field), reason });
  };
}

/** Seconds since the epoch Date can show (±8.64e15 ms, ECMA-262 21.4.1.1). */
const DATE_RANGE_SECONDS = 8.64e12;

/**
 * Why a time given to the store cannot be a datestamp, or null when it can:
 * a datestamp is a whole second (OAI-PMH 3.3: seconds granularity at most),
 * not before 1970-01-01T00:00:00Z (the store counts datestamps in seconds
 * from there, and OAI-PMH itself is from 2001), and not after `now`. The
 * time is said as a date, so a record of 1960 is not told its datestamp
 * "is not a whole number".
 */
function datestampProblem(seconds: number, now: number): string | null {
  if (!Number.isSafeInteger(seconds)) return `${String(seconds)} is not a whole number of seconds since the epoch`;
  if (seconds >= 0 && seconds <= now) return null;
  const shown = Math.abs(seconds) <= DATE_RANGE_SECONDS ? formatDatestamp(seconds) : `${seconds} seconds from the epoch`;
  return seconds < 0 ? `${shown} lies before 1970-01-01T00:00:00Z, where this store's datestamps begin` : `${shown} lies in the future`;
}

function describeChar(s: string): string | null {
  const c = nonXmlChar(s);
  return c === null ? null : c.codePoint;
}

/**
 * Stage 1: what is wrong with one record on its own. `now` (the store's
 * clock, seconds) bounds the datestamp: it may not lie in the future.
 *
 * @example recordRefusals({ internalId: 'a', metadata: {} }, 1700000000)[0]?.reason // 'a record that is not deleted needs metadata in at least one format'
 */
export function recordRefusals(item: PreparedItem, now: number): Refusal[] {
  const refusals: Refusal[] = [];
  const refuse = refuserOf(item, refusals);
  (item.identifiers ?? []).forEach((value, i) => {
    const bad = describeChar(value);
    if (bad) refuse(`identifiers[${i}]`, `${JSON.stringify(value)} contains ${bad}, which XML 1.0 cannot carry`);
  });
  for (const spec of item.sets ?? []) {
    if (!isValidSetSpec(spec)) refuse('sets', `${JSON.stringify(spec)} is not a valid setSpec`);
  }
  // A departure is from a set the item is not in, at a time no later than the item's datestamp.
  const inSets = new Set((item.sets ?? []).filter(isValidSetSpec).flatMap(withAncestors));
  (item.departures ?? []).forEach((d, i) => {
    if (!isValidSetSpec(d.spec)) refuse(`departures[${i}]`, `${JSON.stringify(d.spec)} is not a valid setSpec`);
    else if (inSets.has(d.spec)) refuse(`departures[${i}]`, `the record is in the set ${JSON.stringify(d.spec)}, so it cannot have left it`);
    const when = datestampProblem(d.at, Number.MAX_SAFE_INTEGER);
    if (when !== null) refuse(`departures[${i}]`, when);
    else if (d.at > (item.datestamp ?? now)) refuse(`departures[${i}]`, "the departure lies after the record's datestamp");
  });
  // A live item is disseminated in some format (OAI-PMH 3.4: at least oai_dc).
  const prefixes = Object.keys(item.metadata);
  if (!item.deleted && prefixes.length === 0) refuse('metadata', 'a record that is not deleted needs metadata in at least one format');
  for (const prefix of prefixes) {
    if (!isValidMetadataPrefix(prefix)) refuse(`metadata.${prefix}`, `${JSON.stringify(prefix)} is not a valid metadataPrefix`);
    // A writer escapes what it writes (lib/formats/xml-out.ts) from fields already checked for
    // XML 1.0 characters, and always writes a root element: only XML a record gives needs these scans.
    if (item.written.includes(prefix)) continue;
    const xml = item.metadata[prefix] ?? '';
    if (!item.deleted && xml.trim() === '') refuse(`metadata.${prefix}`, 'the metadata is empty');
    const bad = describeChar(xml);
    if (bad) refuse(`metadata.${prefix}`, `the metadata contains ${bad}, which XML 1.0 cannot carry`);
  }
  (item.about ?? []).forEach((a, i) => {
    const bad = describeChar(a.xml);
    if (bad) refuse(`about[${i}]`, `the about container contains ${bad}, which XML 1.0 cannot carry`);
  });
  if (item.datestamp !== undefined) {
    const when = datestampProblem(item.datestamp, now);
    if (when !== null) refuse('datestamp', when);
  }
  return refusals;
}

/**
 * Stage 2: the metadata of each live item, checked per format. With
 * `checks`, a prefix without a check is refused as unknown; without, only
 * well-formedness is checked. Whatever a format's check accepts must still
 * be one well-formed element, since the renderer splices it in as it is
 * (lib/xml/fragment.ts). Returns one list per item, index for index.
 *
 * @example metadataRefusals([{ internalId: 'a', metadata: { oai_dc: '<a>' } }])[0]?.[0]?.field // 'metadata.oai_dc'
 */
export function metadataRefusals(items: readonly PreparedItem[], checks?: FormatChecks): Refusal[][] {
  return metadataJudgement(items, checks).refusals;
}

/**
 * {@link metadataRefusals}, with the prefixes of each item whose given XML
 * its format's check refused (a schema's verdict, not a broken element or
 * an unknown prefix): what ./withhold.ts may keep without serving.
 */
function metadataJudgement(items: readonly PreparedItem[], checks?: FormatChecks): { refusals: Refusal[][]; schemaRefused: string[][] } {
  const out: Refusal[][] = items.map(() => []);
  const schemaRefused: string[][] = items.map(() => []);
  // prefix → the items (index, xml, made by a crosswalk) of that format, to check a batch at a time.
  const byPrefix = new Map<string, { index: number; xml: string; written: boolean }[]>();
  items.forEach((item, index) => {
    if (item.deleted === true) return;
    for (const [prefix, xml] of Object.entries(item.metadata)) {
      const list = byPrefix.get(prefix) ?? [];
      list.push({ index, xml, written: item.written.includes(prefix) });
      byPrefix.set(prefix, list);
    }
  });
  for (const [prefix, list] of byPrefix) {
    const field = `metadata.${prefix}`;
    const refuse = (index: number, reason: string): void => refuserOf(items[index] as PreparedItem, out[index] as Refusal[])(field, reason);
    const check = checks?.get(prefix);
    if (checks && !check) {
      for (const { index } of list) refuse(index, 'unknown metadataPrefix (not in the format registry)');
      continue;
    }
    // A writer's output is valid by construction (the writers' tests prove it against the
    // published XSDs, fast-check records of random shape included): only the XML a record gives goes
    // through the format's check and the well-formedness scan, which cost more than the writer.
    const given = list.flatMap((e, k) => (e.written ? [] : [k]));
    const found = check && given.length > 0 ? check.check(given.map((k) => (list[k] as { xml: string }).xml)) : [];
    const reasons: (readonly string[])[] = list.map(() => []);
    given.forEach((k, j) => (reasons[k] = found[j] ?? []));
    list.forEach(({ index, xml, written }, k) => {
      const own = reasons[k] ?? [];
      for (const reason of own) refuse(index, reason);
      if (own.length > 0) (schemaRefused[index] as string[]).push(prefix);
      if (own.length > 0 || written) return;
      const problem = checkFragment(xml);
      if (problem !== null) refuse(index, `the metadata is not one well-formed XML element: ${problem}`);
    });
  }
  return { refusals: out, schemaRefused };
}

/**
 * Stage 2 for `about` containers (OAI-PMH 2.0 section 2.5): each one of a
 * live item passes `checks.about` (the schema of its namespace: they are
 * spliced into responses, which must stay valid) and is one well-formed
 * element. A deleted item's are ignored: it is disseminated as a header.
 *
 * @example aboutRefusals([{ internalId: 'a', metadata: {}, about: [{ xml: '<x' }] }])[0]?.[0]?.field // 'about[0]'
 */
export function aboutRefusals(items: readonly PreparedItem[], checks?: FormatChecks): Refusal[][] {
  const out: Refusal[][] = items.map(() => []);
  const list: { index: number; position: number; xml: string }[] = [];
  items.forEach((item, index) => {
    if (item.deleted !== true) (item.about ?? []).forEach((a, position) => list.push({ index, position, xml: a.xml }));
  });
  if (list.length === 0) return out;
  const reasons = checks?.about ? checks.about.check(list.map((e) => e.xml)) : [];
  list.forEach(({ index, position, xml }, k) => {
    const refuse = refuserOf(items[index] as PreparedItem, out[index] as Refusal[]);
    const own = reasons[k] ?? [];
    for (const reason of own) refuse(`about[${position}]`, reason);
    if (own.length > 0) return;
    const problem = checkFragment(xml);
    if (problem !== null) refuse(`about[${position}]`, `the about container is not one well-formed XML element: ${problem}`);
  });
  return out;
}

/**
 * The item with the identifier values found inside its metadata added to
 * its own identifier fields (after them, without repeats), so governance
 * judges an identifier whether it came as a field or inside XML. Only the
 * XML a record gives is read: a writer's output (`written`) carries
 * identifiers the item already names (./prepare.ts), and reading them back
 * out of the XML it has just written was a twelfth of the loader's time;
 * nor is the oai_dc the model was lifted from, whose dc:identifier values
 * the model holds.
 *
 * @example withMetadataIdentifiers({ internalId: 'a', metadata: { oai_dc: '<oai_dc:dc xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:identifier>u:1</dc:identifier></oai_dc:dc>' } }).identifiers // ['u:1']
 */
export function withMetadataIdentifiers(item: PreparedItem, checks?: FormatChecks): PreparedItem {
  if (item.deleted === true) return item;
  const known = item.identifiers ?? [];
  const extra: string[] = [];
  for (const [prefix, xml] of Object.entries(item.metadata)) {
    if (item.written.includes(prefix) || (prefix === 'oai_dc' && item.liftedFrom === 'oai_dc')) continue;
    const check = checks?.get(prefix);
    const found = check?.identifiers ? check.identifiers(xml) : prefix === 'oai_dc' ? dcIdentifiers(xml) : [];
    for (const v of found) if (!known.includes(v) && !extra.includes(v)) extra.push(v);
  }
  return extra.length > 0 ? { ...item, identifiers: [...known, ...extra] } : item;
}

/** What stages 1 and 2 made of a batch. */
export interface Judged {
  /** One list per item, index for index: the refusals of stages 1 and 2. */
  readonly refusals: readonly (readonly Refusal[])[];
  /** The items that passed both, with the identifiers of their metadata added, and their index in the batch. */
  readonly passed: readonly { readonly index: number; readonly item: PreparedItem }[];
  /** One list per item, index for index: the prefixes whose given XML its format's check refused. */
  readonly schemaRefused: readonly (readonly string[])[];
}

/**
 * Runs stages 1 and 2 over a batch and prepares what passed for stage 3.
 *
 * @example judgeRecords(items, now, checks).passed.length === items.length // nothing refused so far
 */
export function judgeRecords(items: readonly PreparedItem[], now: number, checks?: FormatChecks): Judged {
  const refusals = items.map((item) => recordRefusals(item, now));
  const sound = items.flatMap((item, index) => ((refusals[index] as Refusal[]).length === 0 ? [{ index, item }] : []));
  const formats = metadataJudgement(
    sound.map((s) => s.item),
    checks,
  );
  const byFormat = formats.refusals;
  const schemaRefused: string[][] = items.map(() => []);
  sound.forEach((s, k) => (schemaRefused[s.index] = formats.schemaRefused[k] ?? []));
  const byAbout = aboutRefusals(
    sound.map((s) => s.item),
    checks,
  );
  const passed: { index: number; item: PreparedItem }[] = [];
  sound.forEach((s, k) => {
    const found = [...(byFormat[k] as Refusal[]), ...(byAbout[k] as Refusal[])];
    // Only a record whose formats passed is told it lacks oai_dc: a refused format says what to fix first.
    if (found.length === 0) found.push(...oaiDcRefusals(s.item));
    if (found.length > 0) refusals[s.index] = found;
    else passed.push({ index: s.index, item: withMetadataIdentifiers(s.item, checks) });
  });
  return { refusals, passed, schemaRefused };
}

/**
 * The last record rule, once its formats passed: a live item is never
 * published without oai_dc (OAI-PMH 2.0 section 3.4). An item has none when
 * nothing it gives could be lifted into the model (./lift.ts), so no oai_dc
 * was written from it: it is refused, naming each format it gives and its
 * namespace, rather than stored to answer cannotDisseminateFormat for oai_dc.
 *
 * @example oaiDcRefusals({ internalId: 'a', metadata: { thesis_rec: '<t xmlns="urn:t"/>' }, written: [] })[0]?.field // 'metadata'
 */
export function oaiDcRefusals(item: PreparedItem): Refusal[] {
  const prefixes = Object.keys(item.metadata);
  if (item.deleted === true || prefixes.length === 0 || item.metadata.oai_dc !== undefined) return [];
  const given = prefixes.map((prefix) => ({ prefix, namespace: parseFragment(item.metadata[prefix] ?? '')?.ns ?? '' }));
  return [{ ...refusalOf(item, 'metadata'), ...withoutOaiDc(given) }];
}

/**
 * The set descriptions a repository can serve: each must be valid against
 * the schema of its namespace (`check`, OAI-PMH 2.0 section 4.6 and
 * OAI-PMH.xsd's strict `descriptionType`), or every harvester's ListSets
 * would be invalid. One that is not is dropped, with a sentence naming the
 * set and why; the set is declared without it. A description that is not
 * well-formed is left for `setProblems` to refuse.
 *
 * @example keptDescriptions([{ spec: 'a', name: 'A', descriptions: ['<notdc/>'] }], checks.descriptions).dropped.length // 1
 */
export function keptDescriptions(sets: readonly SetInput[], check?: FormatCheck): { sets: SetInput[]; dropped: string[] } {
  const all = sets.flatMap((s) => s.descriptions ?? []);
  if (check === undefined || all.length === 0) return { sets: [...sets], dropped: [] };
  const verdicts = check.check(all);
  const dropped: string[] = [];
  let k = 0;
  const kept = sets.map((s) => {
    if (s.descriptions === undefined || s.descriptions.length === 0) return s;
    const descriptions = s.descriptions.filter((_, i) => {
      const reasons = verdicts[k + i] ?? [];
      if (reasons.length > 0) dropped.push(`set ${JSON.stringify(s.spec)}: description ${i + 1} dropped: ${reasons.join('; ')}`);
      return reasons.length === 0;
    });
    k += s.descriptions.length;
    return { ...s, descriptions };
  });
  return { sets: kept, dropped };
}

/**
 * What is wrong with set declarations, one message per problem (empty: they
 * may be written): a setSpec by OAI-PMH.xsd, declared once, a name, XML 1.0
 * characters only, and each description one well-formed element.
 *
 * @example setProblems([{ spec: 'a b', name: 'A' }]) // ['set "a b": not a valid setSpec']
 */
export function setProblems(sets: readonly SetInput[]): string[] {
  const problems: string[] = [];
  const seen = new Set<string>();
  for (const s of sets) {
    const set = `set ${JSON.stringify(s.spec)}`;
    if (!isValidSetSpec(s.spec)) problems.push(`${set}: not a valid setSpec`);
    if (seen.has(s.spec)) problems.push(`${set}: declared twice`);
    seen.add(s.spec);
    if (s.name.trim() === '') problems.push(`${set}: the name is empty`);
    for (const text of [s.name, ...(s.descriptions ?? [])]) {
      const bad = describeChar(text);
      if (bad) problems.push(`${set}: contains ${bad}, which XML 1.0 cannot carry`);
    }
    for (const d of s.descriptions ?? []) {
      const problem = describeChar(d) === null ? checkFragment(d) : null;
      if (problem !== null) problems.push(`${set}: a description is not one well-formed XML element: ${problem}`);
    }
  }
  return problems;
}
