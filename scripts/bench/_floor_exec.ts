/**
 * The floor under an exec turn on the machine at hand: a program that does only the I/O one
 * `trellis exec --json` turn with one read_file call cannot avoid — two streamed Responses requests
 * to the fixture server, the file read, the JSONL events on stdout — with no configuration, tools,
 * permissions or transcript. core.ts compiles it with dist/trellis's start-up options and times it
 * beside every exec run, so "Trellis over the floor" separates Trellis's own cost from what the
 * runtime and this machine charge for any such program.
 *
 * Takes exec's own arguments and reads only `model_providers.fixture.base_url=...`.
 * _floor_exec_stack.ts runs the same turn through Trellis's libraries.
 */
import { readFileSync } from "node:fs";
import process from "node:process";

const tools = [{
  type: "function",
  name: "read_file",
  parameters: { type: "object", properties: { path: { type: "string" } }, required: ["path"] },
}];
const emit = (event: Record<string, unknown>) => process.stdout.write(`${JSON.stringify(event)}\n`);

type Call = { call_id: string; name: string; arguments: string };

/** One streamed request; returns the function calls the model made. */
async function sample(baseUrl: string, input: unknown[]): Promise<Call[]> {
  const response = await fetch(`${baseUrl}/responses`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: "Bearer floor" },
    body: JSON.stringify({ model: "fixture", input, tools, stream: true }),
  });
  const calls: Call[] = [];
  const decoder = new TextDecoder();
  let buffer = "";
  for await (const chunk of response.body!) {
    buffer += decoder.decode(chunk, { stream: true });
    for (let end = buffer.indexOf("\n\n"); end >= 0; end = buffer.indexOf("\n\n")) {
      const data = buffer.slice(0, end).split("\n").find((line) => line.startsWith("data: "));
      buffer = buffer.slice(end + 2);
      if (!data) continue;
      const event = JSON.parse(data.slice(6));
      if (event.type === "response.output_item.done") {
        emit({ type: "item.completed", item: event.item });
        if (event.item.type === "function_call") calls.push(event.item);
      }
    }
  }
  return calls;
}

/** The turn: sample, read the file each call names (`readArgs` checks a call's arguments), sample. */
export async function floorTurn(
  baseUrl: string,
  prompt: string,
  readArgs: (json: string) => { path: string } = JSON.parse,
): Promise<void> {
  const input: unknown[] = [{ role: "user", content: prompt }];
  emit({ type: "turn.started" });
  for (const call of await sample(baseUrl, input)) {
    const output = readFileSync(readArgs(call.arguments).path, "utf8");
    input.push({ type: "function_call", ...call }, {
      type: "function_call_output",
      call_id: call.call_id,
      output,
    });
  }
  await sample(baseUrl, input);
  emit({ type: "turn.completed" });
}

if (import.meta.main) {
  const flag = "model_providers.fixture.base_url=";
  const baseUrl = JSON.parse(process.argv.find((a) => a.startsWith(flag))!.slice(flag.length));
  await floorTurn(baseUrl, process.argv.at(-1)!);
}
