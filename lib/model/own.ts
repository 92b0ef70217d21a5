/**
 * Looking a name from input up in a table. A plain object's lookup also
 * finds what `Object.prototype` has (`constructor`, `toString`, `__proto__`),
 * so a record, a request or a configuration that names one would find a
 * function where a table value was expected; only own properties count here.
 */

/**
 * The table's own value for `key`, or undefined.
 *
 * @example own({ open: 1 }, 'open') // 1
 * @example own({ open: 1 }, 'constructor') // undefined
 */
export function own<V>(table: Readonly<Record<string, V>>, key: string): V | undefined {
  return Object.hasOwn(table, key) ? table[key] : undefined;
}
