/**
 * `exec --output-schema FILE` (#25 item 3): the JSON Schema the final answer must match. The schema
 * goes to the model the way each wire can carry it (lib/model), and the answer is checked here with
 * Ajv — loaded only when a schema is given, so `exec` without one starts as before.
 */
import type { FileSystem } from "../platform/mod.ts";
import { describeError, UsageError } from "../shared/mod.ts";

export interface OutputSchema {
  /** The file it came from, as given. */
  file: string;
  /** The schema, as sent to the model. */
  schema: Record<string, unknown>;
  /** Checks an answer: null when it matches, else what is wrong, one line per mistake. */
  check(answer: string): string | null;
}

/**
 * Reads and compiles the schema. Not a file, not JSON, not a JSON object, or not a schema (Ajv's
 * meta-schema check fails): a usage error naming the file, before any model call (exit 2).
 */
export async function loadOutputSchema(fs: FileSystem, file: string): Promise<OutputSchema> {
  let text: string;
  try {
    text = await fs.readTextFile(file);
  } catch (error) {
    throw new UsageError(`Cannot read --output-schema "${file}": ${describeError(error)}`, { file });
  }
  let schema: unknown;
  try {
    schema = JSON.parse(text);
  } catch (error) {
    throw new UsageError(`--output-schema "${file}" is not JSON: ${describeError(error)}`, { file });
  }
  if (typeof schema !== "object" || schema === null || Array.isArray(schema)) {
    throw new UsageError(`--output-schema "${file}" is not a JSON Schema: expected a JSON object`, { file });
  }
  const record = schema as Record<string, unknown>;
  const ajv = await ajvFor(record);
  let validate: ((data: unknown) => boolean) & { errors?: unknown };
  try {
    validate = ajv.compile(record);
  } catch (error) {
    throw new UsageError(`--output-schema "${file}" is not a JSON Schema: ${describeError(error)}`, { file });
  }
  return {
    file,
    schema: record,
    check(answer) {
      let data: unknown;
      try {
        data = JSON.parse(answer);
      } catch {
        return "the answer is not JSON";
      }
      if (validate(data)) return null;
      return ajv.errorsText(validate.errors as never, { dataVar: "answer", separator: "; " });
    },
  };
}

/** Draft 2020-12 when the schema says so (OpenAI's examples do), else Ajv's draft-07 default. */
async function ajvFor(schema: Record<string, unknown>) {
  const options = { allErrors: true, strict: false, validateSchema: true };
  if (typeof schema.$schema === "string" && schema.$schema.includes("2020-12")) {
    const { default: Ajv2020 } = await import("ajv/dist/2020");
    return new (Ajv2020 as unknown as typeof import("ajv").default)(options);
  }
  const { default: Ajv } = await import("ajv");
  return new (Ajv as unknown as typeof import("ajv").default)(options);
}

/** The one follow-up a mismatching answer gets, saying what was wrong. */
export function repairPrompt(schema: OutputSchema, problem: string): string {
  return `Your final answer does not match the required JSON Schema (${problem}). ` +
    `Reply again with only the JSON value that matches this schema, nothing else:\n` +
    JSON.stringify(schema.schema);
}
