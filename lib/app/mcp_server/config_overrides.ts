import { UsageError } from "../../shared/mod.ts";
import type { TrellisArguments } from "./tool_arguments.ts";

/**
 * A `trellis` call's settings as `-c key=value` overrides, the session layer of the config (the
 * same layer `exec -c` writes): first `config` (JSON values written as TOML, keys as dotted paths,
 * as Codex's `json_to_toml` does), then the named fields, which win as `exec`'s flags do.
 */
export function callOverrides(args: TrellisArguments): string[] {
  const overrides = Object.entries(args.config ?? {}).map(([key, value]) =>
    `${key}=${tomlValue(value, key)}`
  );
  if (args.model !== undefined) overrides.push(`model=${JSON.stringify(args.model)}`);
  if (args.sandbox !== undefined) overrides.push(`sandbox_mode=${JSON.stringify(args.sandbox)}`);
  if (args["approval-policy"] !== undefined) {
    overrides.push(`approval_policy=${JSON.stringify(args["approval-policy"])}`);
  }
  return overrides;
}

/**
 * A JSON value as a TOML value: strings as basic strings (JSON's escapes are TOML's), numbers and
 * booleans as they are, arrays and objects inline. TOML has no null: an error naming the key.
 */
export function tomlValue(value: unknown, field: string): string {
  if (typeof value === "string") return JSON.stringify(value);
  if (typeof value === "boolean") return String(value);
  if (typeof value === "number") {
    if (!Number.isFinite(value)) throw invalid(field, "a number TOML can hold");
    return String(value);
  }
  if (Array.isArray(value)) return `[${value.map((v, i) => tomlValue(v, `${field}[${i}]`)).join(", ")}]`;
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value).map(([k, v]) =>
      `${JSON.stringify(k)} = ${tomlValue(v, `${field}.${k}`)}`
    );
    return `{ ${entries.join(", ")} }`;
  }
  throw invalid(field, "a string, number, boolean, array or object (TOML has no null)");
}

function invalid(field: string, expected: string): UsageError {
  return new UsageError(`Invalid arguments for trellis: "config.${field}": expected ${expected}`, {
    field: `config.${field}`,
  });
}
