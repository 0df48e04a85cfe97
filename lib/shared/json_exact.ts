/**
 * Whether `JSON.parse(JSON.stringify(value))` gives back exactly this value: null, plain objects and
 * arrays of strings, booleans and finite numbers other than -0, with no `__proto__` key (JSON.parse makes
 * it an own key where an object literal sets a prototype). What a cache written as JSON may hold.
 */
export function jsonExact(value: unknown): boolean {
  switch (typeof value) {
    case "string":
    case "boolean":
      return true;
    case "number":
      return Number.isFinite(value) && !Object.is(value, -0);
    case "object": {
      if (value === null) return true;
      if (Array.isArray(value)) return value.every(jsonExact);
      const proto = Object.getPrototypeOf(value);
      if (proto !== null && proto !== Object.prototype) return false; // a TomlDate, a Date, a Map…
      for (const key of Object.keys(value)) {
        if (key === "__proto__" || !jsonExact((value as Record<string, unknown>)[key])) return false;
      }
      return true;
    }
    default:
      return false;
  }
}
