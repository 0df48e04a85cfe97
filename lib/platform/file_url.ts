import process from "node:process";
import { memo } from "../shared/mod.ts";

// deno-lint-ignore no-explicit-any
const nodeUrl = memo(() => (process as any).getBuiltinModule("node:url") as typeof import("node:url"));

/**
 * The `file://` URL of an absolute path, percent-encoded exactly as Node's `pathToFileURL`. node:url
 * loads on first use: in the Bun binary it costs every command ~2 ms, and only MCP roots need it.
 */
export function fileUrlOf(path: string): string {
  return nodeUrl().pathToFileURL(path).href;
}

/** The absolute path of a `file://` URL (an ACP client's resource links); throws for other URLs. */
export function fileUrlToPath(url: string): string {
  return nodeUrl().fileURLToPath(url);
}
