/**
 * From decoded request pairs to a validated request value (OAI-PMH 3.1, 4).
 *
 * Argument rules are a table per verb, as pyoai has them, not `if` chains.
 * Everything that is wrong with the arguments is reported at once.
 */
import { OaiError, oaiError } from './errors';
import { Granularity, parseUtcDatetime } from './dates';
import { METADATA_PREFIX, SET_SPEC } from '../model/header';
import { NOT_XML_CHAR as NOT_XML } from '../model/text';

/** The six verbs of OAI-PMH 4. */
export const VERBS = ['GetRecord', 'Identify', 'ListIdentifiers', 'ListMetadataFormats', 'ListRecords', 'ListSets'] as const;
export type Verb = (typeof VERBS)[number];

/** The argument names OAI-PMH defines, besides `verb`. */
export type ArgName = 'identifier' | 'metadataPrefix' | 'from' | 'until' | 'set' | 'resumptionToken';

interface ArgRule {
  readonly required: readonly ArgName[];
  readonly optional: readonly ArgName[];
  /** An argument that must stand alone (with `verb` only). */
  readonly exclusive?: ArgName;
}

/** OAI-PMH 4.1-4.6: which arguments each verb takes. */
export const ARGUMENT_RULES: Readonly<Record<Verb, ArgRule>> = {
  GetRecord: { required: ['identifier', 'metadataPrefix'], optional: [] },
  Identify: { required: [], optional: [] },
  ListIdentifiers: { required: ['metadataPrefix'], optional: ['from', 'until', 'set'], exclusive: 'resumptionToken' },
  ListMetadataFormats: { required: [], optional: ['identifier'] },
  ListRecords: { required: ['metadataPrefix'], optional: ['from', 'until', 'set'], exclusive: 'resumptionToken' },
  ListSets: { required: [], optional: [], exclusive: 'resumptionToken' },
};

/** Every argument as received, for the `request` element. */
export type RequestArgs = Readonly<Partial<Record<ArgName, string>>>;

/** The verbs that list items, paged alike (OAI-PMH 4.3, 4.5). */
export type ListVerb = 'ListIdentifiers' | 'ListRecords';

/** The selection of a list harvest's first page. */
export interface ListSelection {
  readonly metadataPrefix: string;
  readonly set?: string;
  /** Inclusive bounds in seconds. */
  readonly from?: number;
  readonly until?: number;
}

/** A list request: a first page with its selection, or a continuation with only a token (OAI-PMH 3.5). */
export type ListRequest = { readonly verb: ListVerb; readonly args: RequestArgs } & (
  ({ readonly resumptionToken?: undefined } & ListSelection) | { readonly resumptionToken: string }
);

/** A request whose arguments are all well-formed for its verb, typed per verb (OAI-PMH 4.1-4.6). */
export type OaiRequest =
  | { readonly verb: 'Identify'; readonly args: RequestArgs }
  | { readonly verb: 'GetRecord'; readonly args: RequestArgs; readonly identifier: string; readonly metadataPrefix: string }
  | { readonly verb: 'ListMetadataFormats'; readonly args: RequestArgs; readonly identifier?: string }
  | ListRequest
  | { readonly verb: 'ListSets'; readonly args: RequestArgs; readonly resumptionToken?: string };

export type ParsedRequest =
  | { readonly ok: true; readonly request: OaiRequest }
  | {
      readonly ok: false;
      readonly errors: readonly OaiError[];
      /** The verb, when it was a legal one (lets the caller log it). */
      readonly verb?: Verb;
    };

/**
 * The most `<error>` elements one answer lists. Every problem is reported
 * together (OAI-PMH 3.6), but a request of thousands of bad arguments would
 * get an answer many times its own size: past this many, the last element
 * says how many more were found.
 */
export const MAX_LISTED_ERRORS = 20;

/** The errors as listed: at most {@link MAX_LISTED_ERRORS}, the last saying how many were left out. */
function listed(errors: readonly OaiError[]): readonly OaiError[] {
  if (errors.length <= MAX_LISTED_ERRORS) return errors;
  const shown = errors.slice(0, MAX_LISTED_ERRORS - 1);
  return [
    ...shown,
    oaiError('badArgument', `${errors.length - shown.length} more problems with the arguments were found; at most ${MAX_LISTED_ERRORS} are listed.`),
  ];
}

/**
 * Validates decoded pairs against the verb's argument table. Returns every
 * badVerb or badArgument condition found; semantic errors (unknown format,
 * unknown identifier, bad token contents) are the verb handlers' to find.
 * Example: `parseRequest([['verb', 'Identify']])` → `{ ok: true, request: { verb: 'Identify', args: {} } }`.
 */
export function parseRequest(pairs: ReadonlyArray<readonly [string, string]>): ParsedRequest {
  const verbs = pairs.filter(([k]) => k === 'verb').map(([, v]) => v);
  if (verbs.length === 0) return { ok: false, errors: [oaiError('badVerb', 'The request has no verb argument.')] };
  if (verbs.length > 1) return { ok: false, errors: [oaiError('badVerb', 'The verb argument is repeated.')] };
  const verbValue = verbs[0] as string;
  if (!(VERBS as readonly string[]).includes(verbValue)) {
    return { ok: false, errors: [oaiError('badVerb', `${describe(verbValue)} is not a legal OAI-PMH verb.`)] };
  }
  const verb = verbValue as Verb;
  const rule = ARGUMENT_RULES[verb];
  const allowed = new Set<string>([...rule.required, ...rule.optional, ...(rule.exclusive ? [rule.exclusive] : [])]);

  const errors: OaiError[] = [];
  const args: Partial<Record<ArgName, string>> = {};
  const seen = new Set<string>();
  for (const [key, value] of pairs) {
    if (key === 'verb') continue;
    if (seen.has(key)) {
      if (!errors.some((e) => e.message.startsWith(`The argument ${describe(key)} is repeated`))) {
        errors.push(oaiError('badArgument', `The argument ${describe(key)} is repeated.`));
      }
      continue;
    }
    seen.add(key);
    if (!allowed.has(key)) {
      errors.push(oaiError('badArgument', `${describe(key)} is not an argument of ${verb}.`));
      continue;
    }
    if (value === '') {
      errors.push(oaiError('badArgument', `The argument ${key} is empty.`));
      continue;
    }
    if (NOT_XML.test(value)) {
      errors.push(oaiError('badArgument', `The argument ${key} holds characters that XML 1.0 cannot carry.`));
      continue;
    }
    args[key as ArgName] = value;
  }
  // Everything wrong is reported together (OAI-PMH 3.6): keep checking after the first problem.
  if (rule.exclusive && args[rule.exclusive] !== undefined) {
    const others = Object.keys(args).filter((k) => k !== rule.exclusive);
    if (others.length > 0) {
      errors.push(oaiError('badArgument', `${rule.exclusive} is an exclusive argument; it cannot be combined with ${others.join(', ')}.`));
    }
    if (errors.length > 0) return { ok: false, errors: listed(errors), verb };
    return { ok: true, request: continuation(verb, args, args[rule.exclusive]) };
  }

  for (const name of rule.required) {
    if (!seen.has(name)) errors.push(oaiError('badArgument', `${verb} requires the argument ${name}.`));
  }
  const { metadataPrefix, set, identifier } = args;
  if (metadataPrefix !== undefined && !METADATA_PREFIX.test(metadataPrefix)) {
    errors.push(oaiError('badArgument', `${describe(metadataPrefix)} is not a syntactically valid metadataPrefix.`));
  }
  if (set !== undefined && !SET_SPEC.test(set)) {
    errors.push(oaiError('badArgument', `${describe(set)} is not a syntactically valid setSpec.`));
  }
  const range = parseRange(args.from, args.until, errors);
  if (errors.length > 0) return { ok: false, errors: listed(errors), verb };

  return { ok: true, request: firstRequest(verb, args, { identifier, metadataPrefix, set, ...range }) };
}

/** The arguments checked and converted, before they are typed per verb. */
interface Checked {
  readonly identifier: string | undefined;
  readonly metadataPrefix: string | undefined;
  readonly set: string | undefined;
  readonly from?: number;
  readonly until?: number;
}

/** A request without a resumptionToken, typed by its verb; the table guarantees the required arguments. */
function firstRequest(verb: Verb, args: RequestArgs, c: Checked): OaiRequest {
  switch (verb) {
    case 'Identify':
      return { verb, args };
    case 'GetRecord':
      return { verb, args, identifier: present(c.identifier, 'identifier'), metadataPrefix: present(c.metadataPrefix, 'metadataPrefix') };
    case 'ListMetadataFormats':
      return { verb, args, ...(c.identifier !== undefined && { identifier: c.identifier }) };
    case 'ListSets':
      return { verb, args };
    case 'ListIdentifiers':
    case 'ListRecords':
      return {
        verb,
        args,
        metadataPrefix: present(c.metadataPrefix, 'metadataPrefix'),
        ...(c.set !== undefined && { set: c.set }),
        ...(c.from !== undefined && { from: c.from }),
        ...(c.until !== undefined && { until: c.until }),
      };
  }
}

/** A request that continues a list with its exclusive resumptionToken. */
function continuation(verb: Verb, args: RequestArgs, resumptionToken: string | undefined): OaiRequest {
  const token = present(resumptionToken, 'resumptionToken');
  switch (verb) {
    case 'ListIdentifiers':
    case 'ListRecords':
    case 'ListSets':
      return { verb, args, resumptionToken: token };
    default:
      throw new Error(`${verb} takes no resumptionToken`);
  }
}

/** An argument ARGUMENT_RULES has already required: its absence here would be a bug in this module. */
function present(value: string | undefined, name: ArgName): string {
  if (value === undefined) throw new Error(`the argument ${name} was required but is missing`);
  return value;
}

function parseRange(from: string | undefined, until: string | undefined, errors: OaiError[]): { from?: number; until?: number } {
  const f = from === undefined ? undefined : parseUtcDatetime(from);
  const u = until === undefined ? undefined : parseUtcDatetime(until);
  // OAI-PMH 3.3.1: YYYY-MM-DD or YYYY-MM-DDThh:mm:ssZ, real dates only.
  if (f === null) errors.push(oaiError('badArgument', `from ${describe(from ?? '')} is not a valid UTCdatetime (YYYY-MM-DD or YYYY-MM-DDThh:mm:ssZ).`));
  if (u === null) errors.push(oaiError('badArgument', `until ${describe(until ?? '')} is not a valid UTCdatetime (YYYY-MM-DD or YYYY-MM-DDThh:mm:ssZ).`));
  if (!f || !u) return { ...(f && { from: f.start }), ...(u && { until: u.end }) };
  const granularity: Granularity = f.granularity;
  if (granularity !== u.granularity) {
    errors.push(oaiError('badArgument', 'from and until must have the same granularity.'));
  } else if (f.start > u.start) {
    errors.push(oaiError('badArgument', 'from is later than until.'));
  }
  return { from: f.start, until: u.end };
}

/** Quotes a value for a message, cut short so a huge argument cannot bloat the answer. */
function describe(value: string): string {
  const cut = value.length > 80 ? `${value.slice(0, 80)}…` : value;
  return JSON.stringify(cut);
}
