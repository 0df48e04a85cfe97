import type { HookServices } from "./handler_services.ts";
import { type HookCommandResult, runHookCommand, type RunHookOptions } from "./command_runner.ts";
import type { HookHandlerInfo } from "./hook_handler.ts";
import { type HandlerRunResult, runHttpHook } from "./http_runner.ts";
import { runMcpToolHook } from "./mcp_tool_runner.ts";
import { runPromptHook } from "./prompt_runner.ts";

export type HandlerResult = HookCommandResult & HandlerRunResult;

/** One run of any handler type (#24 item 2); never throws: every failure is in the result. */
export function runHandler(
  handler: HookHandlerInfo,
  options: RunHookOptions & { services?: HookServices },
): Promise<HandlerResult> {
  const services = options.services ?? {};
  const signal = options.signal ? { signal: options.signal } : {};
  switch (handler.type ?? "command") {
    case "http":
      return runHttpHook(handler, {
        input: options.input,
        env: options.baseEnv ?? options.platform.envAll(),
        ...(services.httpAllowlist ? { allowlist: services.httpAllowlist } : {}),
        ...signal,
        ...(options.maxOutputBytes ? { maxOutputBytes: options.maxOutputBytes } : {}),
      });
    case "prompt":
    case "agent":
      return runPromptHook(handler, { input: options.input, services, cwd: options.cwd, ...signal });
    case "mcp_tool":
      return runMcpToolHook(handler, { input: options.input, services, ...signal });
    default:
      return runHookCommand(handler, options);
  }
}
