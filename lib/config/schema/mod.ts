import { memo, type z } from "../../shared/mod.ts";
import { agentsSections } from "./agents.ts";
import { compatSections } from "./compat.ts";
import { coreSections } from "./core.ts";
import { hooksSections } from "./hooks.ts";
import { mcpSections } from "./mcp_servers.ts";
export { MCP_SERVER_NAME } from "./mcp_servers.ts";
import { permissionsSections } from "./permissions.ts";
import { pluginsSections } from "./plugins.ts";
import { skillsSections } from "./skills.ts";
import { toolsSections } from "./tools.ts";
import { otelSections } from "./otel.ts";
import { checkpointsSections } from "./checkpoints.ts";

const SECTIONS = {
  ...coreSections,
  ...mcpSections,
  ...skillsSections,
  ...hooksSections,
  ...pluginsSections,
  ...permissionsSections,
  ...compatSections,
  ...agentsSections,
  ...toolsSections,
  ...otelSections,
  ...checkpointsSections,
};
type Sections = typeof SECTIONS;

/**
 * One config layer (or the merged result). Every key is optional here; defaults live in
 * `defaults.ts` so a layer's errors name only what that file wrote.
 */
export type TrellisConfig = { [K in keyof Sections]?: z.output<ReturnType<Sections[K]>> };

export type ConfigTableResult =
  | { success: true; data: TrellisConfig }
  | { success: false; issues: z.core.$ZodIssue[] };

/** Each section's schema, built on first use. */
const sectionSchemas: Record<string, () => z.ZodMiniType> = Object.fromEntries(
  Object.entries(SECTIONS).map(([key, build]) => [key, memo<z.ZodMiniType>(build)]),
);

function sectionSchema(key: string): z.ZodMiniType | undefined {
  return Object.hasOwn(sectionSchemas, key) ? sectionSchemas[key]() : undefined;
}

/**
 * Validates a config table key by key, each section's schema built the first time a layer sets it.
 * Issues read as one strict object's would: paths from the top, unknown top-level keys as one
 * `unrecognized_keys` issue.
 */
export function parseConfigTable(table: Record<string, unknown>): ConfigTableResult {
  const data: Record<string, unknown> = {};
  const issues: z.core.$ZodIssue[] = [];
  const unknown: string[] = [];
  for (const [key, value] of Object.entries(table)) {
    if (value === undefined) continue;
    const schema = sectionSchema(key);
    if (!schema) {
      unknown.push(key);
      continue;
    }
    const result = schema.safeParse(value);
    if (result.success) data[key] = result.data;
    else issues.push(...result.error.issues.map((issue) => ({ ...issue, path: [key, ...issue.path] })));
  }
  if (unknown.length > 0) {
    issues.push({
      code: "unrecognized_keys",
      keys: unknown,
      path: [],
      input: table,
      message: `Unrecognized key${unknown.length > 1 ? "s" : ""}: ${unknown.map((k) => `"${k}"`).join(", ")}`,
    });
  }
  return issues.length > 0 ? { success: false, issues } : { success: true, data: data as TrellisConfig };
}

/**
 * The keys a table at `parent` may hold (the top level when empty), read from the schema, for "did
 * you mean …?" under an unknown key. Best effort: optional, record and pipe wrappers are looked
 * through; anything else (a union, a custom check) gives no keys.
 */
export function knownKeysAt(parent: readonly (string | number)[]): string[] {
  if (parent.length === 0) return Object.keys(SECTIONS);
  let node: unknown = sectionSchema(String(parent[0]));
  for (const segment of parent.slice(1)) {
    node = unwrap(node);
    const def = defOf(node);
    if (def?.type === "record") node = def.valueType;
    else if (def?.type === "object") node = (def.shape as Record<string, unknown>)[String(segment)];
    else return [];
  }
  const def = defOf(unwrap(node));
  return def?.type === "object" ? Object.keys(def.shape as object) : [];
}

function defOf(schema: unknown): Record<string, unknown> | undefined {
  return (schema as { _zod?: { def?: Record<string, unknown> } } | undefined)?._zod?.def;
}

function unwrap(schema: unknown): unknown {
  let node = schema;
  for (let i = 0; i < 8; i++) {
    const def = defOf(node);
    if (def?.type === "optional" || def?.type === "nullable" || def?.type === "default") node = def.innerType;
    else if (def?.type === "pipe") node = def.out;
    else return node;
  }
  return node;
}
