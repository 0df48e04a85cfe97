import process from "node:process";

type NodeUrl = typeof import("node:url");
let nodeUrl: NodeUrl | undefined;

/**
 * The `file://` URL of an absolute path, percent-encoded exactly as Node's `pathToFileURL`. node:url
 * loads on first use: in the Bun binary it costs every command ~2 ms, and only MCP roots need it.
 */
export function fileUrlOf(path: string): string {
  // deno-lint-ignore no-explicit-any
  nodeUrl ??= (process as any).getBuiltinModule("node:url") as NodeUrl;
  return nodeUrl.pathToFileURL(path).href;
}
