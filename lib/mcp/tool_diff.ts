import type { Tool } from "./_sdk.ts";
import { PINNED_FIELDS, type PinnedDefinition, pinnedDefinition } from "./tool_fingerprint.ts";
import type { PinState, ToolPins } from "./tool_pins.ts";

/** One difference between a pinned definition and the one a server presents now. */
export interface FieldChange {
  /** Dotted path from the definition's top: `description`, `inputSchema.properties.path.type`. */
  field: string;
  /** Absent when the field is new. */
  old?: unknown;
  /** Absent when the field was removed. */
  new?: unknown;
}

export interface ToolDiff {
  tool: string;
  state: PinState;
  /** For `changed`: field by field; for `new`: the whole definition as one change. */
  changes: FieldChange[];
  /** Set when more changes existed than `MAX_CHANGES`. */
  more?: number;
}

/** A diff never lists more than this many fields per tool (a 1 MB schema rewrite stays readable). */
export const MAX_CHANGES = 200;

/** Field-by-field differences of two definitions, leaves of objects compared by path. */
export function diffDefinitions(before: PinnedDefinition, after: PinnedDefinition): ToolDiff["changes"] {
  const changes: FieldChange[] = [];
  for (const field of PINNED_FIELDS) diffValue(field, before[field], after[field], changes);
  return changes;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function diffValue(at: string, a: unknown, b: unknown, out: FieldChange[]): void {
  if (isRecord(a) && isRecord(b)) {
    const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])].sort();
    for (const key of keys) diffValue(`${at}.${key}`, a[key], b[key], out);
    return;
  }
  if (JSON.stringify(a) === JSON.stringify(b)) return;
  out.push({ field: at, ...(a !== undefined ? { old: a } : {}), ...(b !== undefined ? { new: b } : {}) });
}

/** Every tool of one server whose definition is not the pinned one (`new` or `changed`). */
export function diffServerTools(pins: ToolPins, server: string, tools: readonly Tool[]): ToolDiff[] {
  const diffs: ToolDiff[] = [];
  for (const tool of tools) {
    const state = pins.stateOf(server, tool);
    if (state !== "new" && state !== "changed") continue;
    const now = pinnedDefinition(tool);
    const pin = pins.pinOf(server, tool.name);
    const all = pin
      ? diffDefinitions(pin.definition ?? { name: tool.name }, now)
      : [{ field: "(definition)", new: now }];
    diffs.push({
      tool: tool.name,
      state,
      changes: all.slice(0, MAX_CHANGES),
      ...(all.length > MAX_CHANGES ? { more: all.length - MAX_CHANGES } : {}),
    });
  }
  return diffs.sort((a, b) => a.tool < b.tool ? -1 : a.tool > b.tool ? 1 : 0);
}
