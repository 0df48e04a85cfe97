/**
 * The one zod entry for lib: zod's mini API (about a tenth of classic's start-up cost in the compiled
 * binary) configured with the two defaults classic installs before its first schema is built. Every
 * schema module imports `z` from here, hence this runs before any schema is built or parsed.
 *
 * - The English locale: issue messages read exactly as before ("Invalid input: expected string,
 *   received number"); mini ships without one.
 * - The memoizer (cycle support in containers), which classic turns on before its first container
 *   and mini leaves off; on from the start, every container is built as under classic.
 */
import * as z from "./zod_api.ts";
import en from "zod/v4/locales/en.js";

z.config({ ...en(), memoizer: z.memoizer() });

/**
 * Classic's `.describe(text)`: the description goes into the global registry, where `z.toJSONSchema`
 * reads it; no check is added to the schema.
 */
export function describeSchema<T extends z.core.$ZodType>(schema: T, description: string): T {
  z.globalRegistry.add(schema, { description });
  return schema;
}

export { z };
