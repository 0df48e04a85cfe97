/**
 * Issue #21 item 12: a `tools/list` answer as servers publish it, not as the spec wants it. The SDK's
 * own `listTools` fails the whole server on one malformed tool (server-gitlab 2025.4.25: no inputSchema
 * has `"type": "object"`); here each tool is repaired where its meaning is clear, as Codex does, and
 * dropped only when it cannot be used. Every repair and drop is a problem naming the tool and field.
 */

type Json = Record<string, unknown>;

/**
 * Past this, one tool's input schema (~500k tokens) fits no model's window, so the tool is dropped;
 * below it a big schema is declared and counted (`debug context` names it, tool search may defer it).
 */
export const MAX_TOOL_SCHEMA_BYTES = 2 * 1024 * 1024;

export interface ToolProblem {
  /** The tool's name, or `#<index>` when it has none. */
  tool: string;
  field: string;
  /** What was wrong and what was done, readable after "tool X: ". */
  message: string;
  dropped: boolean;
}

export interface RepairedTools {
  tools: Json[];
  problems: ToolProblem[];
}

/** Repairs every tool of one listing; a later tool with a name already seen is dropped. */
export function repairTools(raw: unknown): RepairedTools {
  if (!Array.isArray(raw)) {
    return {
      tools: [],
      problems: [{
        tool: "tools/list",
        field: "tools",
        message: `is ${kind(raw)}, not an array`,
        dropped: true,
      }],
    };
  }
  const tools: Json[] = [];
  const problems: ToolProblem[] = [];
  const seen = new Set<string>();
  raw.forEach((entry, index) => {
    const repaired = repairTool(entry, index, problems);
    if (!repaired) return;
    if (seen.has(repaired.name as string)) {
      problems.push({
        tool: repaired.name as string,
        field: "name",
        message: "is listed twice; the second is dropped",
        dropped: true,
      });
      return;
    }
    seen.add(repaired.name as string);
    tools.push(repaired);
  });
  return { tools, problems };
}

function repairTool(entry: unknown, index: number, problems: ToolProblem[]): Json | undefined {
  const drop = (tool: string, field: string, message: string) => {
    problems.push({ tool, field, message: `${message}; the tool is not offered`, dropped: true });
    return undefined;
  };
  if (!isObject(entry)) return drop(`#${index}`, "tool", `is ${kind(entry)}, not an object`);
  if (typeof entry.name !== "string" || entry.name === "") {
    return drop(
      `#${index}`,
      "name",
      entry.name === undefined ? "is missing" : `is ${kind(entry.name)}, not a string`,
    );
  }
  const name = entry.name;
  const fix = (field: string, message: string) =>
    problems.push({ tool: name, field, message, dropped: false });
  const tool: Json = { ...entry };
  for (const field of ["description", "title"]) {
    if (tool[field] !== undefined && typeof tool[field] !== "string") {
      fix(field, `is ${kind(tool[field])}, not a string; left out`);
      delete tool[field];
    }
  }
  const input = inputSchema(entry.inputSchema);
  if ("error" in input) return drop(name, "inputSchema", input.error);
  if (input.note) fix("inputSchema", input.note);
  tool.inputSchema = input.schema;
  for (const note of input.subNotes) fix(`inputSchema.${note.field}`, note.message);
  const output = entry.outputSchema;
  if (output !== undefined) {
    if (!isObject(output) || (output.type ?? "object") !== "object") {
      fix("outputSchema", `is ${kind(output)}, not an object schema; left out`);
      delete tool.outputSchema;
    } else if (output.type === undefined) {
      tool.outputSchema = { type: "object", ...output };
    }
  }
  if (tool.annotations !== undefined && !isObject(tool.annotations)) {
    fix("annotations", `is ${kind(tool.annotations)}, not an object; left out`);
    delete tool.annotations;
  }
  if (tool._meta !== undefined && !isObject(tool._meta)) {
    fix("_meta", `is ${kind(tool._meta)}, not an object; left out`);
    delete tool._meta;
  }
  return tool;
}

interface SchemaRepair {
  schema: Json;
  note?: string;
  subNotes: { field: string; message: string }[];
}

/**
 * The input schema as an object schema: no `type` → `"object"` (properties and required kept),
 * `true` or missing → no parameters. `false`, `null`, arrays, other types and oversized schemas
 * cannot describe a tool's arguments.
 */
function inputSchema(value: unknown): SchemaRepair | { error: string } {
  if (value === undefined) {
    return {
      schema: { type: "object", properties: {} },
      note: "is missing; taken as no parameters",
      subNotes: [],
    };
  }
  if (value === true) {
    return {
      schema: { type: "object", properties: {} },
      note: "is true (accept anything); taken as no parameters",
      subNotes: [],
    };
  }
  if (!isObject(value)) return { error: `is ${kind(value)}, not a JSON schema object` };
  const bytes = JSON.stringify(value).length;
  if (bytes > MAX_TOOL_SCHEMA_BYTES) {
    return { error: `is ${formatBytes(bytes)}, over the ${formatBytes(MAX_TOOL_SCHEMA_BYTES)} limit` };
  }
  const schema: Json = { ...value };
  const subNotes: SchemaRepair["subNotes"] = [];
  let note: string | undefined;
  const type = value.type;
  if (type === undefined) {
    note = 'lacks "type": "object"; taken as an object schema';
    if (schema.properties === undefined) schema.properties = {};
  } else if (Array.isArray(type) && type.includes("object")) {
    note = `has type ${JSON.stringify(type)}; taken as "object"`;
  } else if (type !== "object") {
    return { error: `has type ${JSON.stringify(type)}; tool arguments must be an object` };
  }
  schema.type = "object";
  if (schema.properties !== undefined && !isObject(schema.properties)) {
    subNotes.push({ field: "properties", message: `is ${kind(schema.properties)}, not an object; left out` });
    delete schema.properties;
  }
  if (schema.required !== undefined) {
    const required = Array.isArray(schema.required)
      ? schema.required.filter((r) => typeof r === "string")
      : [];
    if (!Array.isArray(schema.required) || required.length !== schema.required.length) {
      subNotes.push({ field: "required", message: "is not a list of names; kept only its names" });
      schema.required = required;
    }
  }
  return { schema, ...(note ? { note } : {}), subNotes };
}

function isObject(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function kind(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  if (typeof value === "object") return "an object";
  if (typeof value === "string") return `a string (${JSON.stringify(value.slice(0, 40))})`;
  if (typeof value === "boolean") return String(value);
  return `a ${typeof value}`;
}

function formatBytes(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(1)} MB` : `${Math.round(bytes / 1024)} KB`;
}

/**
 * One warning per kind of problem, naming the tools it hit: a server whose every schema lacks a
 * type is one line, not forty.
 */
export function describeToolProblems(problems: readonly ToolProblem[]): string[] {
  const groups = new Map<string, string[]>();
  for (const p of problems) {
    const key = `${p.field}\u0000${p.message}`;
    groups.set(key, [...groups.get(key) ?? [], p.tool]);
  }
  return [...groups].map(([key, tools]) => {
    const [field, message] = key.split("\u0000");
    const names = tools.length > 5
      ? `${tools.slice(0, 5).join(", ")} and ${tools.length - 5} more`
      : tools.join(", ");
    return `tool${tools.length > 1 ? "s" : ""} ${names}: ${field} ${message}`;
  });
}
