/** Values built from JSON schemas for the probe: elicitation defaults and sample tool arguments. */

type Schema = Record<string, unknown>;

function properties(schema: Schema): [string, Schema][] {
  const props = schema.properties;
  return props && typeof props === "object" ? Object.entries(props as Record<string, Schema>) : [];
}

/** A form answer made of every field's `default` (fields without one are left out). */
export function defaultsFromSchema(schema: Schema): Record<string, unknown> {
  const content: Record<string, unknown> = {};
  for (const [name, prop] of properties(schema)) {
    if (prop.default !== undefined) content[name] = prop.default;
  }
  return content;
}

/** Plausible arguments for a tool: defaults, else the first enum value, else a value of the type. */
export function argumentsFromSchema(schema: Schema | undefined): Record<string, unknown> {
  const args: Record<string, unknown> = {};
  for (const [name, prop] of properties(schema ?? {})) args[name] = sampleValue(prop);
  return args;
}

function sampleValue(schema: Schema): unknown {
  if (schema.default !== undefined) return schema.default;
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum[0];
  if (schema.const !== undefined) return schema.const;
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case "string":
      return "test";
    case "integer":
    case "number":
      return typeof schema.minimum === "number" ? schema.minimum : 1;
    case "boolean":
      return true;
    case "array":
      return [];
    case "object":
      return argumentsFromSchema(schema);
    default:
      return null;
  }
}
