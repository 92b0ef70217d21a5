/**
 * The request form of the pages sends every field, empty or not, because a
 * page without script cannot leave fields out. This turns what it sent into
 * the OAI-PMH request it means: the arguments the chosen verb takes
 * (OAI-PMH 4, the per-verb table), in a fixed order, without empty values
 * (OAI-PMH 3.1.1 forbids them).
 */
import { ARGUMENT_RULES, VERBS } from '../oai';
import type { Verb } from '../oai';

const ORDER = ['metadataPrefix', 'set', 'from', 'until', 'identifier'] as const;

/**
 * The arguments of the request a submitted form means, `verb` first. An
 * unknown or missing verb is passed on as it is, so the endpoint answers
 * badVerb and the page explains it.
 *
 * @example requestFromForm([['verb', 'ListRecords'], ['metadataPrefix', 'oai_dc'], ['set', ''], ['identifier', 'x']])
 * // [['verb', 'ListRecords'], ['metadataPrefix', 'oai_dc']]
 */
export function requestFromForm(pairs: ReadonlyArray<readonly [string, string]>): Array<[string, string]> {
  const first = new Map<string, string>();
  for (const [k, v] of pairs) if (!first.has(k)) first.set(k, v.trim());
  const verb = first.get('verb') ?? '';
  if (!(VERBS as readonly string[]).includes(verb)) return [['verb', verb]];
  const rule = ARGUMENT_RULES[verb as Verb];
  const takes = new Set<string>([...rule.required, ...rule.optional]);
  const out: Array<[string, string]> = [['verb', verb]];
  for (const name of ORDER) {
    const v = first.get(name);
    if (takes.has(name) && v !== undefined && v !== '') out.push([name, v]);
  }
  return out;
}
