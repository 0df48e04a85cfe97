import { notStarted } from "../platform/mod.ts";
import { deadline } from "../shared/mod.ts";
import type { HookServices } from "./handler_services.ts";
import type { HookHandlerInfo } from "./hook_handler.ts";
import type { HandlerRunResult } from "./http_runner.ts";

/**
 * An `mcp_tool` hook calls one tool of a connected MCP server with the event as its arguments (or
 * the handler's `input`, `${tool_input.file_path}`-style references filled from the event); the
 * tool's text is read as a command's stdout. A server that is not connected fails the run, named.
 */
export async function runMcpToolHook(
  handler: HookHandlerInfo,
  options: { input: string; services: HookServices; signal?: AbortSignal },
): Promise<HandlerRunResult> {
  const started = performance.now();
  const spec = handler.mcpTool!;
  const fail = (problem: string): HandlerRunResult => ({
    ...notStarted(performance.now() - started),
    problem,
  });
  if (!options.services.callMcpTool) {
    return fail(`mcp_tool hook not run: no MCP server is connected (wanted ${spec.server})`);
  }
  const event = JSON.parse(options.input) as Record<string, unknown>;
  const args = spec.input ? fillReferences(spec.input, event) as Record<string, unknown> : event;
  const limit = deadline(options.signal, handler.timeoutSec * 1000);
  try {
    const answer = await options.services.callMcpTool({
      server: spec.server,
      tool: spec.tool,
      arguments: args,
      signal: limit.signal,
    });
    const durationMs = performance.now() - started;
    if (!answer.ok) return fail(`mcp_tool hook not run: ${answer.problem}`);
    if (answer.isError) {
      return fail(
        `mcp_tool hook ${spec.server}/${spec.tool} returned an error: ${answer.text.slice(0, 300)}`,
      );
    }
    return { ...notStarted(durationMs), code: 0, stdout: answer.text };
  } catch (error) {
    const durationMs = performance.now() - started;
    if (limit.timedOut()) return { ...notStarted(durationMs), timedOut: true };
    if (options.signal?.aborted) return { ...notStarted(durationMs), aborted: true };
    return fail(`mcp_tool hook ${spec.server}/${spec.tool} failed: ${(error as Error).message}`);
  } finally {
    limit.end();
  }
}

/** `${a.b}` in strings: a whole-string reference keeps the value's type; inside text it is stringified. */
function fillReferences(value: unknown, event: Record<string, unknown>): unknown {
  if (typeof value === "string") {
    const whole = /^\$\{([A-Za-z0-9_.]+)\}$/.exec(value);
    if (whole) return lookup(event, whole[1]) ?? "";
    return value.replace(/\$\{([A-Za-z0-9_.]+)\}/g, (_m, path: string) => {
      const found = lookup(event, path);
      return found === undefined ? "" : typeof found === "string" ? found : JSON.stringify(found);
    });
  }
  if (Array.isArray(value)) return value.map((v) => fillReferences(v, event));
  if (typeof value === "object" && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, fillReferences(v, event)]));
  }
  return value;
}

function lookup(event: Record<string, unknown>, path: string): unknown {
  return path.split(".").reduce<unknown>(
    (
      obj,
      key,
    ) => (typeof obj === "object" && obj !== null ? (obj as Record<string, unknown>)[key] : undefined),
    event,
  );
}
