/**
 * The fixture model server as a process of its own, as a real model is: a bench that times a
 * request from this process does not also time the server's work run between its own.
 */
import { platform } from "../../lib/platform/mod.ts";

export interface FixtureProcess {
  /** Base URL, ending in /v1. */
  url: string;
  /** Requests answered so far (the server's `--log`, kept only when `countRequests`). */
  requestCount(): Promise<number>;
  close(): Promise<void>;
}

/** Starts scripts/fixture_model_server.ts on `scriptYaml` (written under `dir`). */
export async function fixtureProcess(
  dir: string,
  scriptYaml: string,
  options: { countRequests?: boolean } = {},
): Promise<FixtureProcess> {
  const script = `${dir}/fixture-${crypto.randomUUID()}.yaml`;
  const log = `${script}.requests.jsonl`;
  await platform.fs.writeTextFile(script, scriptYaml);
  const child = new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "-A",
      new URL("../fixture_model_server.ts", import.meta.url).pathname,
      "--script",
      script,
      // Each request body is appended there: a growing thread's would cost the server more and more.
      ...(options.countRequests ? ["--log", log] : []),
    ],
    stdout: "piped",
    stderr: "inherit",
  }).spawn();
  const url = await firstLine(child, "the fixture model server");
  return {
    url,
    requestCount: async () => {
      if (!options.countRequests) throw new Error("fixtureProcess: started without countRequests");
      try {
        return (await platform.fs.readTextFile(log)).split("\n").filter((l) => l.trim()).length;
      } catch {
        return 0;
      }
    },
    close: async () => {
      child.kill("SIGTERM");
      await child.status;
      await child.stdout.cancel().catch(() => {});
    },
  };
}

/**
 * The first line a spawned helper prints on stdout (its URL or port), trimmed; the rest of stdout is
 * left to the caller (cancel it on close).
 */
export async function firstLine(child: Deno.ChildProcess, what: string): Promise<string> {
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let first = "";
  try {
    while (!first.includes("\n")) {
      const { value, done } = await reader.read();
      if (done) throw new Error(`${what} exited before printing its first line`);
      first += value;
    }
  } finally {
    reader.releaseLock();
  }
  return first.split("\n")[0].trim();
}
