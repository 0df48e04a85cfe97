import { TrellisError, z } from "../shared/mod.ts";
import type {
  ApprovalNeed,
  ApprovalSubject,
  JsonSchema,
  ToolDefinition,
  ToolResult,
  ToolRunContext,
} from "../shared/mod.ts";
import { BUILTIN_TOOL_PARAMETERS } from "./builtin_parameters.generated.ts";

/** A built-in tool: the shared contract plus the reverse of `toHookInput`, for PreToolUse rewrites. */
export interface BuiltinTool extends ToolDefinition {
  toHookInput(args: unknown): unknown;
  /** Turns a hook's `updatedInput` (Claude Code's tool_input shape) back into validated arguments. */
  fromHookInput(input: unknown): unknown;
  /**
   * The JSON Schema zod derives from the argument schema now. `parameters` is its copy generated
   * ahead of time (builtin_parameters.generated.ts), which tests keep equal to this.
   */
  derivedParameters(): Promise<JsonSchema>;
}

export interface BuiltinToolSpec<A> {
  name: string;
  hookName: string;
  hookAliases?: string[];
  description: string;
  /** Built on first use (a `memo`): start-up builds no zod schema for the tools. */
  schema: () => z.core.$ZodType<A>;
  parallel: boolean;
  approval(args: A): ApprovalNeed;
  /** See ToolDefinition.unsandboxedSubject. */
  unsandboxedSubject?(args: A): ApprovalSubject;
  run(args: A, ctx: ToolRunContext): Promise<ToolResult>;
  toHookInput(args: A): Record<string, unknown>;
  /** Maps a hook-shaped input back to raw arguments; validation follows. */
  fromHookInput(input: Record<string, unknown>): Record<string, unknown>;
}

/** Builds the contract object from a typed spec; arguments are validated once, in `parseArguments`. */
export function builtinTool<A>(spec: BuiltinToolSpec<A>): BuiltinTool {
  const parse = (raw: unknown): A => parseToolArguments(spec.name, spec.schema(), raw);
  return {
    name: spec.name,
    hookName: spec.hookName,
    hookAliases: spec.hookAliases ?? [],
    description: spec.description,
    // Generated, so no session derives JSON Schemas (nor loads zod's generator) before its first request.
    parameters: generatedParameters(spec.name),
    parallel: spec.parallel,
    source: { kind: "builtin" },
    parseArguments: parse,
    approval: (args) => spec.approval(args as A),
    ...(spec.unsandboxedSubject
      ? { unsandboxedSubject: (args: unknown) => spec.unsandboxedSubject!(args as A) }
      : {}),
    run: (args, ctx) => spec.run(args as A, ctx),
    toHookInput: (args) => withoutUndefined(spec.toHookInput(args as A)),
    fromHookInput: (input) => parse(withoutUndefined(spec.fromHookInput(asRecord(spec.name, input)))),
    derivedParameters: () => toolParameters(spec.schema()),
  };
}

function generatedParameters(name: string): JsonSchema {
  const parameters = BUILTIN_TOOL_PARAMETERS[name];
  if (!parameters) {
    throw new TrellisError(
      "internal",
      `built-in tool "${name}" has no generated parameters: run \`deno task gen\``,
      {
        tool: name,
      },
    );
  }
  return parameters;
}

async function toolParameters(schema: z.core.$ZodType): Promise<JsonSchema> {
  const { toJSONSchema } = await import("zod/mini");
  const { $schema: _ignored, ...rest } = toJSONSchema(schema, { io: "input" }) as JsonSchema;
  return rest;
}

/**
 * Validates model arguments (a JSON string or an object). The message names each bad field so the
 * model can correct its call; the loop turns the thrown error into an error output.
 */
export function parseToolArguments<A>(tool: string, schema: z.core.$ZodType<A>, raw: unknown): A {
  let value = raw;
  if (typeof raw === "string") {
    try {
      value = raw.trim() === "" ? {} : JSON.parse(raw);
    } catch {
      throw argumentsError(tool, "arguments are not valid JSON");
    }
  }
  const result = z.safeParse(schema, value);
  if (result.success) return result.data;
  const problems = result.error.issues.map((issue) => {
    const field = issue.path.length ? issue.path.join(".") : "arguments";
    return `${field}: ${issue.message}`;
  });
  const field = result.error.issues[0]?.path.join(".");
  throw argumentsError(tool, problems.join("; "), field);
}

function argumentsError(tool: string, state: string, field?: string): TrellisError {
  return new TrellisError("tool_arguments", `Cannot parse arguments for "${tool}": ${state}`, {
    field: field || undefined,
    tool,
  });
}

function asRecord(tool: string, input: unknown): Record<string, unknown> {
  if (typeof input === "object" && input !== null && !Array.isArray(input)) {
    return input as Record<string, unknown>;
  }
  throw argumentsError(tool, "hook input must be a JSON object");
}

/** Optional fields stay absent rather than `undefined`, as they would after a JSON round trip. */
function withoutUndefined(record: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(record).filter(([, value]) => value !== undefined));
}
