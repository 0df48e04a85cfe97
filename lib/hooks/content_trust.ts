import { namedFiles, namedFilesDigest, type NamedFilesOptions } from "../platform/mod.ts";
import type { DeclaredHandler, HookSource } from "./hook_handler.ts";

/**
 * The content part of a hook's trust (#20 item 7), stored as `content_hash` beside Codex's command
 * hash (`trusted_hash`, whose meaning stays Codex's): a plugin hook covers its plugin's tree digest,
 * and every hook covers the files its command names under the project, the working directory or its
 * plugin (`.claude/hooks/x.sh`, `$CLAUDE_PROJECT_DIR/scripts/y.py`, `sh ${CLAUDE_PLUGIN_ROOT}/run.sh`).
 * A hook naming no such file outside a plugin has no content part and is trusted as before.
 */
export interface HandlerContent {
  /** `sha256:<hex>` over the plugin digest and the named files; absent: nothing to cover. */
  hash?: string;
  /** The named files alone, re-read before each run: a file rewritten mid-session is not run. */
  files?: { options: NamedFilesOptions; digest: string };
  /** Why the content cannot be judged (the plugin's directory vanished): the hook never runs. */
  problem?: string;
}

export interface ContentScope {
  cwd: string;
  projectRoot: string;
  userHome: string;
}

export function handlerContent(
  declared: DeclaredHandler,
  source: HookSource,
  scope: ContentScope,
): HandlerContent {
  const plugin = source.plugin;
  if (plugin?.contentError !== undefined) {
    return { problem: `plugin ${plugin.pluginId}: ${plugin.contentError}` };
  }
  const vars: Record<string, string> = { CLAUDE_PROJECT_DIR: scope.cwd, HOME: scope.userHome };
  const roots = [scope.projectRoot, scope.cwd, ...source.contentRoots ?? []];
  if (plugin) {
    for (const name of ["PLUGIN_ROOT", "CLAUDE_PLUGIN_ROOT"]) vars[name] = plugin.pluginRoot;
    for (const name of ["PLUGIN_DATA", "CLAUDE_PLUGIN_DATA"]) vars[name] = plugin.dataDir;
    roots.push(plugin.pluginRoot);
  }
  const options: NamedFilesOptions = { cwd: scope.cwd, roots, vars };
  const named = namedFiles(commandText(declared), options);
  if (named.length === 0 && !plugin) return {};
  // Inside the plugin a path is recorded relative to its root: a new version of the same bytes at
  // another version directory is the same content.
  const files = plugin
    ? named.map((f) => ({ ...f, path: relativeToPlugin(f.path, plugin.pluginRoot) }))
    : named;
  const digest = namedFilesDigest(files);
  const prefix = plugin ? `plugin ${plugin.contentDigest ?? "unknown"}\n` : "";
  return { hash: namedFilesDigest(files, prefix), files: { options, digest } };
}

/** The text whose named files a command hook covers: the command, and its exec-form `args`. */
export function commandText(handler: { command: string; args?: string[] }): string {
  return handler.args ? [handler.command, ...handler.args].join(" ") : handler.command;
}

/** Whether the named files still read as they did when the hook was loaded. */
export function namedFilesUnchanged(
  command: string,
  files: { options: NamedFilesOptions; digest: string },
  pluginRoot?: string,
): boolean {
  const named = namedFiles(command, files.options);
  const now = pluginRoot ? named.map((f) => ({ ...f, path: relativeToPlugin(f.path, pluginRoot) })) : named;
  return namedFilesDigest(now) === files.digest;
}

function relativeToPlugin(file: string, root: string): string {
  return file === root || file.startsWith(root + "/") ? `\${PLUGIN_ROOT}${file.slice(root.length)}` : file;
}
