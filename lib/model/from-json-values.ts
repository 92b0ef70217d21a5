/**
 * The values of a JSON record model, read one by one: text, checked text,
 * enumerations, objects and typed identifiers, each refusing with the path of
 * the field at fault (./from-json.ts reads whole records with them).
 */
import { findNonXmlChar } from './text';
import { checkIdentifier, IDENTIFIER_TYPES, type Checked } from './identifiers';
import type { TypedIdentifier } from './record';

export type Refuse = (field: string, reason: string) => void;

export type Obj = Record<string, unknown>;

export const isObject = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A refusal function that also says whether it has been called: an object with any refusal is left out. */
export function tracked(refuse: Refuse): { r: Refuse; failed: () => boolean } {
  let failed = false;
  return {
    r: (field, reason) => {
      failed = true;
      refuse(field, reason);
    },
    failed: () => failed,
  };
}

/** A non-empty string XML can carry, or a refusal. */
export function readText(v: unknown, path: string, refuse: Refuse): string | undefined {
  if (typeof v !== 'string' || v.trim() === '') {
    refuse(path, 'must be a non-empty string');
    return undefined;
  }
  const bad = findNonXmlChar(v);
  if (bad) {
    refuse(path, `holds a character XML 1.0 cannot carry (${bad})`);
    return undefined;
  }
  return v;
}

export function readChecked(v: unknown, path: string, refuse: Refuse, check: (s: string) => Checked): string | undefined {
  const s = readText(v, path, refuse);
  if (s === undefined) return undefined;
  const c = check(s);
  if ('error' in c) {
    refuse(path, `${JSON.stringify(s)}: ${c.error}`);
    return undefined;
  }
  return c.value;
}

export function readEnum<T extends string>(v: unknown, path: string, values: readonly T[], refuse: Refuse): T | undefined {
  if (typeof v === 'string' && (values as readonly string[]).includes(v)) return v as T;
  refuse(path, `must be one of ${values.join(', ')}`);
  return undefined;
}

/** An object with only the given keys, or a refusal (unknown keys are refused, as at the top level). */
export function readObject(v: unknown, path: string, keys: readonly string[], refuse: Refuse): Obj | undefined {
  if (!isObject(v)) {
    refuse(path, 'must be an object');
    return undefined;
  }
  let ok = true;
  for (const k of Object.keys(v)) {
    if (!keys.includes(k)) {
      refuse(`${path}.${k}`, `unknown field (expected ${keys.join(', ')})`);
      ok = false;
    }
  }
  return ok ? v : undefined;
}

export function readTypedIdentifier(v: unknown, path: string, refuse: Refuse): TypedIdentifier | undefined {
  const o = readObject(v, path, ['type', 'value'], refuse);
  if (!o) return undefined;
  const type = readEnum(o.type, `${path}.type`, IDENTIFIER_TYPES, refuse);
  if (!type) return undefined;
  const value = readChecked(o.value, `${path}.value`, refuse, (s) => checkIdentifier(type, s));
  return value === undefined ? undefined : { type, value };
}
