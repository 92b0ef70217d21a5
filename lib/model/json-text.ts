/**
 * The record fields as the store keeps them: JSON text, `JSON.stringify` of
 * the object. A record read on the loader's reading thread crosses to the
 * writing thread as that text already (a string is copied whole, where an
 * object is serialized and rebuilt property by property); the object parsed
 * from it remembers it, so the store does not serialize the fields again.
 * The text is only remembered for objects parsed from text `JSON.stringify`
 * wrote, for which parsing and serializing again give back the same text.
 */
import type { RecordFields } from './record';

const remembered = new WeakMap<RecordFields, string>();

/**
 * `JSON.stringify(fields)`, without serializing again an object parsed by
 * {@link fieldsFromJson}.
 *
 * @example fieldsJson({ dc: { title: ['T'] } }) // '{"dc":{"title":["T"]}}'
 */
export function fieldsJson(fields: RecordFields): string {
  return remembered.get(fields) ?? JSON.stringify(fields);
}

/**
 * The record fields of a text `JSON.stringify` wrote from record fields
 * (never any other JSON: its text would be taken as the fields' own),
 * remembering the text for {@link fieldsJson}.
 *
 * @example fieldsJson(fieldsFromJson('{"dc":{}}')) // '{"dc":{}}', not serialized again
 */
export function fieldsFromJson(json: string): RecordFields {
  const fields = JSON.parse(json) as RecordFields;
  remembered.set(fields, json);
  return fields;
}
