/**
 * Runs `trellis exec --json` against the real fixture model server with one scripted tool call,
 * then a closing text, and returns the events and what the model got back (#23 item 3 tests).
 */
import { type FixtureScript, startFixtureModelServer } from "../../scripts/fixture_model_server.ts";
import { platform } from "../../lib/platform/mod.ts";
import { makeSandboxHome, runCliCaptured } from "../helpers/cli_harness.ts";

export interface ExecRun {
  code: number;
  stderr: string;
  events: Record<string, any>[];
  requests: Record<string, any>[];
  /** The function_call_output items the model received, in order. */
  outputs: { call_id: string; output: unknown }[];
  ws: string;
}

export async function execWithCalls(
  calls: { name: string; arguments: Record<string, unknown> }[][] | URL,
  config: string[],
  prepare?: (ws: string) => Promise<void>,
  prompt = "go",
  json = true,
): Promise<ExecRun> {
  const { root, env } = await makeSandboxHome();
  const ws = `${root}/ws`;
  await platform.fs.mkdir(ws);
  await prepare?.(ws);
  const script: FixtureScript | URL = calls instanceof URL
    ? calls
    : { steps: [...calls.map((tool_calls) => ({ tool_calls })), { text: "done" }] };
  const server = await startFixtureModelServer({ script });
  try {
    const args = [
      "-c",
      "model_provider=fixture",
      "-c",
      "tool_set=trellis",
      "-c",
      `model_providers.fixture.base_url=${JSON.stringify(server.url)}`,
      "-c",
      "model_providers.fixture.request_max_retries=0",
      "-c",
      "skills.bundled.enabled=false",
      ...config.flatMap((c) => ["-c", c]),
      "exec",
      ...(json ? ["--json"] : []),
      prompt,
    ];
    const run = await runCliCaptured(args, { env: { ...env, OPENAI_API_KEY: "k" }, cwd: ws });
    const events = json ? run.stdout.split("\n").filter(Boolean).map((line) => JSON.parse(line)) : [];
    const requests = server.requests as Record<string, any>[];
    const outputs = requests.flatMap((r) => (r.input as Record<string, any>[]) ?? [])
      .filter((i) => i.type === "function_call_output")
      .map((i) => ({ call_id: i.call_id, output: i.output }));
    const unique = [...new Map(outputs.map((o) => [o.call_id, o])).values()];
    return { code: run.code, stderr: run.stderr, events, requests, outputs: unique, ws };
  } finally {
    await server.close();
  }
}

/** The text of an output (a string, or the text parts of a list). */
export function outputText(output: unknown): string {
  if (typeof output === "string") return output;
  if (Array.isArray(output)) return output.map((p) => p.text ?? "").join("\n");
  return JSON.stringify(output);
}
