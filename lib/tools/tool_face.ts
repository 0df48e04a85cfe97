/**
 * A tool under another family's name and argument shape (#23 item 2): `Read {file_path}` is
 * read_file `{path}` beneath, so permissions, the sandbox, approvals and hooks are the same code
 * whatever the model sees. The declared JSON Schema is written by hand from the peers' captured
 * shapes (fixtures/peers/), not derived.
 */
import type { JsonSchema } from "../shared/mod.ts";
import { TrellisError } from "../shared/mod.ts";
import type { BuiltinTool } from "./builtin_tool.ts";

export interface FaceSpec {
  name: string;
  description: string;
  parameters: JsonSchema;
  /** The face's arguments (an object) as the inner tool's raw arguments. */
  toInner(args: Record<string, unknown>): Record<string, unknown>;
}

/** `inner` declared as `spec`; parsed arguments are the inner tool's, so everything else delegates. */
export function toolFace(inner: BuiltinTool, spec: FaceSpec): BuiltinTool {
  return {
    ...inner,
    name: spec.name,
    description: spec.description,
    parameters: spec.parameters,
    parseArguments: (raw) => inner.parseArguments(spec.toInner(argumentObject(spec.name, raw))),
    derivedParameters: () => Promise.resolve(spec.parameters),
  };
}

/** Model arguments as an object: a JSON string is parsed, anything but an object refused. */
export function argumentObject(tool: string, raw: unknown): Record<string, unknown> {
  let value = raw;
  if (typeof raw === "string") {
    try {
      value = raw.trim() === "" ? {} : JSON.parse(raw);
    } catch {
      throw new TrellisError(
        "tool_arguments",
        `Cannot parse arguments for "${tool}": arguments are not valid JSON`,
        {
          tool,
        },
      );
    }
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new TrellisError(
      "tool_arguments",
      `Cannot parse arguments for "${tool}": arguments must be a JSON object`,
      {
        tool,
      },
    );
  }
  return value as Record<string, unknown>;
}

/** A JSON Schema object with these properties, as the peers declare them (no extra properties). */
export function objectSchema(properties: Record<string, JsonSchema>, required: string[]): JsonSchema {
  return { type: "object", properties, required, additionalProperties: false };
}
