/**
 * The one way arus builds and reads JS objects keyed by data (column and field names): rows of
 * `collect()`, foreachBatch and the testing kit, struct values, JSON records. Any name is a
 * plain own property, `__proto__` and `constructor` included: `setField` defines the property
 * instead of assigning it (an assignment to `__proto__` would change the object's prototype),
 * and `getField` reads own properties only (so `constructor` of an object without that field is
 * undefined, not `Object`). The objects stay ordinary `{}` objects, so they compare equal to
 * object literals in `assert.deepStrictEqual`.
 */

const PROTO = "__proto__";

/** A new empty row object. */
export function newRowObject(): Record<string, unknown> {
  return {};
}

/** Set field `name` of a row object as an own, enumerable property, whatever the name. */
export function setField(o: Record<string, unknown>, name: string, value: unknown): void {
  if (name === PROTO) Object.defineProperty(o, name, { value, enumerable: true, writable: true, configurable: true });
  else o[name] = value;
}

/** Field `name` of an object from user code or parsed data: own properties only. */
export function getField(o: object, name: string): unknown {
  return Object.hasOwn(o, name) ? (o as Record<string, unknown>)[name] : undefined;
}

/** Does the object have its own field `name`? */
export function hasField(o: object, name: string): boolean {
  return Object.hasOwn(o, name);
}

/** A row object from names and values (same length). */
export function rowObject(names: readonly string[], values: readonly unknown[]): Record<string, unknown> {
  const o = newRowObject();
  for (let i = 0; i < names.length; i++) setField(o, names[i]!, values[i]);
  return o;
}
