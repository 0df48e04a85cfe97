/**
 * Issue #21 item 15: a tool's input schema as the model is sent it, without what no model reads.
 * Servers generated from OpenAPI (notion) copy every component into every tool's `$defs`; pydantic
 * titles each property with its own name; zod adds `$schema`. Here:
 *   - `$defs` / `definitions` no `$ref` reaches (from the schema or a reached definition) go;
 *   - a definition reached by exactly one `$ref`, not recursive, is put in its place;
 *   - a subschema repeated verbatim (and big enough to pay for a `$ref`) becomes one definition;
 *   - `$schema`, `$id` and `$comment` go, and a `title` that only repeats its property's name.
 * `description`, `default`, `format`, `enum`, bounds, `required`, `additionalProperties`, `examples`
 * — everything a model uses to build arguments — stay as they are. A schema this cannot read
 * safely (a `$ref` into the middle of a definition, a remote `$ref`) keeps those definitions.
 */

type Json = Record<string, unknown>;

/** Repeats smaller than this stay inline: a `$ref` and its definition would not save bytes. */
const MIN_SHARED_BYTES = 160;
const DEF_KEYS = ["$defs", "definitions"] as const;
const DROPPED_KEYS = new Set(["$schema", "$id", "$comment"]);

const cache = new WeakMap<object, Json>();

/** The compacted schema; the same object in gives the same object out (cached per schema). */
export function compactSchema(schema: Json): Json {
  const cached = cache.get(schema);
  if (cached) return cached;
  let result: Json;
  try {
    result = compact(schema);
  } catch {
    result = schema; // never worse than verbatim
  }
  if (JSON.stringify(result).length > JSON.stringify(schema).length) result = schema;
  cache.set(schema, result);
  return result;
}

function compact(schema: Json): Json {
  const refs = refSites(schema, [], "$defs").map((s) => s.ref);
  // Remote documents, `$id`-relative refs and `$anchor`s are resolved by rules not followed here.
  if (refs.some((r) => !r.startsWith("#/") && r !== "#")) return schema;
  const copy = clean(structuredClone(schema), undefined);
  for (const key of DEF_KEYS) {
    const defs = copy[key];
    if (!isObject(defs)) continue;
    pruneAndInline(copy, key, defs);
    if (Object.keys(defs).length === 0) delete copy[key];
  }
  // A JSON pointer into the tree (zod's `#/properties/owner`) would break if its target moved.
  const pointers = refs.some((r) =>
    defName(r, "$defs") === undefined && defName(r, "definitions") === undefined
  );
  if (!pointers) shareRepeats(copy);
  return copy;
}

/** Keywords whose value is a map of name → subschema. */
const SCHEMA_MAPS = new Set(["properties", "patternProperties", "$defs", "definitions", "dependentSchemas"]);
/** Keywords whose value is one subschema (or, for `items`, the old list form). */
const SCHEMA_ONE = new Set([
  "items",
  "additionalItems",
  "additionalProperties",
  "unevaluatedItems",
  "unevaluatedProperties",
  "not",
  "if",
  "then",
  "else",
  "contains",
  "propertyNames",
]);
const SCHEMA_LISTS = new Set(["anyOf", "oneOf", "allOf", "prefixItems"]);

/** The subschemas directly under a schema, with the property name for `properties` entries. */
function subschemas(node: Json): [Json, string | undefined][] {
  const out: [Json, string | undefined][] = [];
  for (const [key, value] of Object.entries(node)) {
    if (SCHEMA_MAPS.has(key) && isObject(value)) {
      for (const [name, sub] of Object.entries(value)) {
        if (isObject(sub)) out.push([sub, key === "properties" ? name : undefined]);
      }
    } else if ((SCHEMA_ONE.has(key) || SCHEMA_LISTS.has(key)) && (isObject(value) || Array.isArray(value))) {
      for (const sub of Array.isArray(value) ? value : [value]) if (isObject(sub)) out.push([sub, undefined]);
    }
  }
  return out;
}

/** Drops the keys no model reads, and pydantic's `title` that repeats its property's name. */
function clean(node: Json, name: string | undefined): Json {
  for (const key of DROPPED_KEYS) delete node[key];
  if (name !== undefined && typeof node.title === "string" && sameWords(node.title, name)) delete node.title;
  for (const [sub, prop] of subschemas(node)) clean(sub, prop);
  return node;
}

function sameWords(title: string, name: string): boolean {
  const words = (s: string) =>
    s.replace(/([a-z0-9])([A-Z])/g, "$1 $2").toLowerCase().split(/[^a-z0-9]+/).join("");
  return words(title) === words(name);
}

interface RefSite {
  holder: Json;
  /** The definition's name when the `$ref` is exactly `#/<key>/<name>`; undefined otherwise. */
  def: string | undefined;
  ref: string;
}

/** Every `$ref` under `node`, skipping values that are data (`default`, `enum`, …). */
function refSites(node: unknown, out: RefSite[], key: string): RefSite[] {
  if (Array.isArray(node)) {
    for (const n of node) refSites(n, out, key);
  } else if (isObject(node)) {
    if (typeof node.$ref === "string") {
      out.push({ holder: node, def: defName(node.$ref, key), ref: node.$ref });
    }
    for (const [k, value] of Object.entries(node)) {
      if (k !== "default" && k !== "const" && k !== "enum" && k !== "examples") refSites(value, out, key);
    }
  }
  return out;
}

function defName(ref: string, key: string): string | undefined {
  const prefix = `#/${key}/`;
  if (!ref.startsWith(prefix)) return undefined;
  const rest = ref.slice(prefix.length);
  if (rest.includes("/")) return undefined;
  return decodeURIComponent(rest).replaceAll("~1", "/").replaceAll("~0", "~");
}

function pruneAndInline(root: Json, key: string, defs: Json): void {
  const outside = { ...root };
  delete outside[key];
  const rootSites = refSites(outside, [], key);
  // A `$ref` we cannot follow by name (into a definition, another document): keep every definition.
  const all = [...rootSites, ...Object.values(defs).flatMap((d) => refSites(d, [], key))];
  if (all.some((s) => s.def === undefined && s.ref.startsWith(`#/${key}/`))) return;
  if (all.some((s) => !s.ref.startsWith("#"))) return;

  // Reachability from the schema itself, through the definitions it reaches.
  const reached = new Set<string>();
  const queue = rootSites.flatMap((s) => s.def !== undefined ? [s.def] : []);
  while (queue.length > 0) {
    const name = queue.pop()!;
    if (reached.has(name) || !(name in defs)) continue;
    reached.add(name);
    for (const s of refSites(defs[name], [], key)) if (s.def !== undefined) queue.push(s.def);
  }
  for (const name of Object.keys(defs)) if (!reached.has(name)) delete defs[name];

  // Inline a definition with one `$ref` to it, unless it reaches itself.
  const sites = [...refSites(outside, [], key), ...Object.values(defs).flatMap((d) => refSites(d, [], key))];
  const count = new Map<string, RefSite[]>();
  for (const s of sites) if (s.def !== undefined) count.set(s.def, [...count.get(s.def) ?? [], s]);
  for (const [name, uses] of count) {
    if (uses.length !== 1 || !(name in defs) || reaches(defs, key, name, name)) continue;
    const site = uses[0];
    const def = defs[name];
    if (!isObject(def)) continue;
    delete site.holder.$ref;
    const siblings = { ...site.holder };
    for (const k of Object.keys(site.holder)) delete site.holder[k];
    Object.assign(site.holder, def, siblings);
    delete defs[name];
  }
}

function reaches(defs: Json, key: string, from: string, target: string, seen = new Set<string>()): boolean {
  if (seen.has(from)) return false;
  seen.add(from);
  return refSites(defs[from], [], key).some((s) =>
    s.def === target || (s.def !== undefined && reaches(defs, key, s.def, target, seen))
  );
}

/**
 * A subschema that appears verbatim in several places (an OpenAPI `rich_text` item in ten
 * properties) is written once under `$defs` and referenced. Only subschemas with no `$ref` of their
 * own move (their meaning cannot depend on where they sit), and only where it saves bytes.
 */
function shareRepeats(root: Json): void {
  const seen = new Map<string, { holders: Json[]; bytes: number }>();
  const visit = (node: Json, top: boolean) => {
    const text = JSON.stringify(node);
    if (!top && text.length >= MIN_SHARED_BYTES && !text.includes('"$ref"')) {
      const entry = seen.get(text) ?? { holders: [], bytes: text.length };
      entry.holders.push(node);
      seen.set(text, entry);
      if (entry.holders.length > 1) return; // its insides are counted once, through the first
    }
    for (const [sub] of subschemas(node)) visit(sub, false);
  };
  visit(root, true);
  const repeated = [...seen.values()].filter((e) => e.holders.length > 1)
    .sort((a, b) => b.bytes - a.bytes);
  if (repeated.length === 0) return;
  const defs = isObject(root.$defs) ? root.$defs : {};
  let n = 0;
  for (const entry of repeated) {
    const holders = entry.holders;
    let name: string;
    do name = `shared${++n}`; while (name in defs);
    const ref = `#/$defs/${name}`;
    if ((holders.length - 1) * entry.bytes <= holders.length * (ref.length + 10) + name.length + 4) continue;
    // The first holder's own keys move (its children stay the same objects, so a smaller repeat
    // inside it, met later in this loop, is still where the definition now holds it).
    defs[name] = { ...holders[0] };
    for (const h of holders) {
      for (const k of Object.keys(h)) delete h[k];
      h.$ref = ref;
    }
  }
  if (Object.keys(defs).length > 0) root.$defs = defs;
}

function isObject(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
