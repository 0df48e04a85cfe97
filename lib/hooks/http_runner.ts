import { type CommandResult, notStarted, readStreamText } from "../platform/mod.ts";
import { deadline } from "../shared/mod.ts";
import { HOOK_OUTPUT_CAP_BYTES } from "./command_runner.ts";
import type { HookHandlerInfo } from "./hook_handler.ts";

/** A run that failed for a reason of the handler's own type (HTTP status, HTML body, model answer). */
export interface HandlerRunResult extends CommandResult {
  problem?: string;
}

export const HTTP_ALLOWLIST_KEY = "[hooks] allowed_http_hook_urls";
const MAX_REDIRECTS = 5;

export interface HttpRunOptions {
  input: string;
  env: Record<string, string | undefined>;
  allowlist?: string[];
  signal?: AbortSignal;
  maxOutputBytes?: number;
}

/**
 * POSTs the event JSON to the hook's URL (Claude Code's `http` type). A 2xx body is read as a
 * command's stdout; any other status, an HTML page, a body over the output cap, a timeout or a
 * redirect off the allowlist fails the run. The URL — and every redirect's target — must match the
 * user's `allowed_http_hook_urls`.
 */
export async function runHttpHook(
  handler: HookHandlerInfo,
  options: HttpRunOptions,
): Promise<HandlerRunResult> {
  const started = performance.now();
  const spec = handler.http!;
  const fail = (problem: string, extra: Partial<CommandResult> = {}): HandlerRunResult => ({
    ...notStarted(performance.now() - started),
    ...extra,
    problem,
  });
  if (options.allowlist === undefined) {
    return fail(`http hook not run: ${HTTP_ALLOWLIST_KEY} is not set in your config (${spec.url})`);
  }
  if (!urlAllowed(spec.url, options.allowlist)) {
    return fail(`http hook not run: ${spec.url} is not on ${HTTP_ALLOWLIST_KEY}`);
  }
  const limit = deadline(options.signal, handler.timeoutSec * 1000);
  const signal = limit.signal;
  const headers = { "content-type": "application/json", ...interpolateHeaders(spec, options.env) };
  let url = spec.url;
  try {
    for (let hop = 0;; hop++) {
      const response = await fetch(url, {
        method: "POST",
        headers,
        body: options.input,
        redirect: "manual",
        signal,
      });
      const location = response.headers.get("location");
      if (response.status >= 300 && response.status < 400 && location !== null) {
        await response.body?.cancel();
        const next = new URL(location, url).href;
        if (!urlAllowed(next, options.allowlist)) {
          return fail(
            `http hook ${url} redirected to ${next}, which is not on ${HTTP_ALLOWLIST_KEY} (not followed)`,
          );
        }
        if (hop >= MAX_REDIRECTS) {
          return fail(`http hook ${spec.url} redirected more than ${MAX_REDIRECTS} times`);
        }
        url = next;
        continue;
      }
      const max = options.maxOutputBytes ?? HOOK_OUTPUT_CAP_BYTES;
      const body = response.body ? await readStreamText(response.body, max) : { text: "", truncated: false };
      const done = { durationMs: performance.now() - started };
      if (response.status < 200 || response.status >= 300) {
        const detail = body.text.trim().slice(0, 200);
        return fail(`http hook ${url} answered ${response.status}${detail ? `: ${detail}` : ""}`, done);
      }
      const type = response.headers.get("content-type") ?? "";
      if (/text\/html/i.test(type)) {
        return fail(`http hook ${url} answered an HTML page (${type}), not hook output`, done);
      }
      return { ...notStarted(0), ...done, code: 0, stdout: body.text, stdoutTruncated: body.truncated };
    }
  } catch (error) {
    const done = { durationMs: performance.now() - started };
    if (limit.timedOut()) return { ...notStarted(0), ...done, timedOut: true };
    if (options.signal?.aborted) return { ...notStarted(0), ...done, aborted: true };
    return fail(`http hook ${url} could not be reached: ${(error as Error).message}`, done);
  } finally {
    limit.end();
  }
}

/** `*` matches any run of characters (a port, a path); everything else literally; the whole URL. */
export function urlAllowed(url: string, allowlist: string[]): boolean {
  let href = url;
  try {
    href = new URL(url).href;
  } catch {
    return false;
  }
  return allowlist.some((pattern) => {
    const source = pattern.split("*").map((part) => part.replace(/[.+?^${}()|[\]\\]/g, "\\$&")).join(".*");
    const re = new RegExp(`^${source}$`);
    return re.test(url) || re.test(href);
  });
}

/** `$VAR` and `${VAR}` in header values: replaced only for names in `allowedEnvVars`, else empty. */
export function interpolateHeaders(
  spec: { headers?: Record<string, string>; allowedEnvVars?: string[] },
  env: Record<string, string | undefined>,
): Record<string, string> {
  const allowed = new Set(spec.allowedEnvVars ?? []);
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(spec.headers ?? {})) {
    out[name] = value.replace(
      /\$\{([A-Za-z_][A-Za-z0-9_]*)\}|\$([A-Za-z_][A-Za-z0-9_]*)/g,
      (_whole, braced: string | undefined, bare: string | undefined) => {
        const key = (braced ?? bare)!;
        return allowed.has(key) ? env[key] ?? "" : "";
      },
    );
  }
  return out;
}
