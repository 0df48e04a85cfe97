import * as path from "node:path";
import type { LoadedConfig } from "../config/mod.ts";
import type { FileSystem } from "../platform/mod.ts";
import { type Diagnostic, type FullYamlParse, loadYamlParser, warning } from "../shared/mod.ts";
import { GENERAL_PURPOSE } from "./builtin_agents.ts";
import { parseAgentFile } from "./parse_agent_file.ts";
import { parseCodexAgentFile } from "./parse_codex_agent_file.ts";
import { AGENT_ORIGINS, type AgentDefinition, type AgentSource } from "./types.ts";

/** A plugin's agent files, as lib/plugins lists them (app passes them in). */
export interface PluginAgentFiles {
  pluginId: string;
  /** The plugin's manifest name: its agents are named `namespace:agent`. */
  namespace: string;
  path: string;
}

/**
 * Where this session's agent definitions live, lowest precedence first: plugins' `agents/`, then
 * Codex's `$CODEX_HOME/agents` (TOML roles, recursively), `~/.claude/agents`
 * (`$CLAUDE_CONFIG_DIR/agents`), `$TRELLIS_HOME/agents`, and — only in a trusted project — each
 * project directory's `.codex/agents`, `.claude/agents` and `.trellis/agents`, root to cwd, each file
 * only as `trellis project trust` recorded it (the project layers' text, hash-checked by lib/config;
 * a file new or changed since is held back with config's warning). An untrusted project's folders
 * are never read: one note says they were skipped.
 */
export function agentSources(
  loaded: Pick<LoadedConfig, "config" | "paths" | "projectTrusted" | "projectLayers">,
  plugins: PluginAgentFiles[],
  fs: FileSystem,
  diagnostics: Diagnostic[],
): AgentSource[] {
  const claude = loaded.config.agents?.claude_code !== false;
  const byPlugin = new Map<string, { namespace: string; files: string[] }>();
  for (const p of plugins) {
    const entry = byPlugin.get(p.pluginId) ?? { namespace: p.namespace, files: [] };
    entry.files.push(p.path);
    byPlugin.set(p.pluginId, entry);
  }
  const sources: AgentSource[] = [...byPlugin].map(([pluginId, p]) => ({ origin: "plugin", pluginId, ...p }));
  const codex = loaded.config.agents?.codex !== false;
  if (codex) sources.push({ origin: "codex-user", dir: path.join(loaded.paths.codexHome, "agents") });
  if (claude) sources.push({ origin: "claude-user", dir: path.join(loaded.paths.claudeDir, "agents") });
  sources.push({ origin: "trellis-user", dir: path.join(loaded.paths.home, "agents") });
  for (const dir of loaded.paths.projectDirs) {
    const approved = loaded.projectLayers;
    const project: AgentSource[] = [
      ...(codex
        ? [{ origin: "codex-project" as const, dir: path.join(dir, ".codex", "agents"), approved }]
        : []),
      ...(claude
        ? [{ origin: "claude-project" as const, dir: path.join(dir, ".claude", "agents"), approved }]
        : []),
      { origin: "trellis-project", dir: path.join(dir, ".trellis", "agents"), approved },
    ];
    for (const source of project) {
      if (source.origin === "plugin") continue;
      if (loaded.projectTrusted) sources.push(source);
      else if (fs.sync.lstat(source.dir)) {
        diagnostics.push({
          level: "info",
          message:
            `Skipped ${source.dir}: this project is not trusted (run \`trellis project trust\` to load its agents)`,
          file: source.dir,
        });
      }
    }
  }
  return sources;
}

export interface LoadedAgents {
  /** By name, sorted; the built-in `general-purpose` first unless a file replaced it. */
  agents: AgentDefinition[];
  diagnostics: Diagnostic[];
}

/**
 * Reads every source's `*.md` files. A file that cannot be read or parsed is one warning naming it
 * (the others load); an unknown field is named once per file; two definitions of one name keep the
 * higher-precedence origin (AGENT_ORIGINS order, then the later directory) and say which won.
 */
export async function loadAgents(
  fs: FileSystem,
  sources: AgentSource[],
  parseYaml?: FullYamlParse,
): Promise<LoadedAgents> {
  const diagnostics: Diagnostic[] = [];
  const byName = new Map<string, AgentDefinition>([[GENERAL_PURPOSE.name, GENERAL_PURPOSE]]);
  const ordered = [...sources].sort((a, b) =>
    AGENT_ORIGINS.indexOf(a.origin) - AGENT_ORIGINS.indexOf(b.origin)
  );
  let yaml = parseYaml;
  for (const source of ordered) {
    const approved = source.origin === "plugin" ? undefined : source.approved;
    const files = source.origin === "plugin"
      ? source.files
      : approved
      ? [...approved.keys()].filter((f) => path.dirname(f) === source.dir && f.endsWith(extension(source)))
        .sort()
      : source.origin === "codex-user"
      ? await tomlFilesBelow(fs, source.dir)
      : await markdownFiles(fs, source.dir);
    for (const file of files) {
      let text: string;
      try {
        text = approved?.get(file) ?? await fs.readTextFile(file);
      } catch (error) {
        diagnostics.push(warning(`Cannot read agent file ${file}: ${(error as Error).message}`, { file }));
        continue;
      }
      const plugin = source.origin === "plugin"
        ? { id: source.pluginId, namespace: source.namespace }
        : undefined;
      const parsed = file.endsWith(".toml")
        ? parseCodexAgentFile(text, { origin: source.origin, path: file })
        : parseAgentFile(text, {
          origin: source.origin,
          path: file,
          ...(plugin ? { plugin } : {}),
        }, yaml ??= await loadYamlParser());
      if (!parsed.ok) {
        diagnostics.push(warning(`Agent file ${file} is not loaded: ${parsed.error}`, { file }));
        continue;
      }
      if (parsed.unknownFields.length > 0) {
        diagnostics.push(warning(
          `Agent file ${file}: unknown field${parsed.unknownFields.length > 1 ? "s" : ""} ` +
            `${parsed.unknownFields.map((f) => `\`${f}\``).join(", ")} ignored`,
          { file },
        ));
      }
      const earlier = byName.get(parsed.definition.name);
      if (earlier && earlier.origin !== "built-in") {
        diagnostics.push(warning(
          `Agent "${parsed.definition.name}" is defined twice: ${file} (${source.origin}) overrides ` +
            `${earlier.path} (${earlier.origin})`,
          { file },
        ));
      }
      byName.set(parsed.definition.name, parsed.definition);
    }
  }
  const agents = [...byName.values()].sort((a, b) =>
    a.name === GENERAL_PURPOSE.name ? -1 : b.name === GENERAL_PURPOSE.name ? 1 : a.name < b.name ? -1 : 1
  );
  return { agents, diagnostics };
}

async function markdownFiles(fs: FileSystem, dir: string): Promise<string[]> {
  let entries;
  try {
    entries = await fs.readDir(dir);
  } catch {
    return []; // an absent folder is the usual case
  }
  return entries
    .filter((e) => (e.isFile || e.isSymlink) && e.name.endsWith(".md"))
    .map((e) => path.join(dir, e.name))
    .sort();
}

/** Codex's folders hold TOML role files; every other origin Markdown. */
function extension(source: AgentSource): string {
  return source.origin === "codex-user" || source.origin === "codex-project" ? ".toml" : ".md";
}

/** Codex reads `$CODEX_HOME/agents` recursively, sorted. */
async function tomlFilesBelow(fs: FileSystem, dir: string, depth = 0): Promise<string[]> {
  let entries;
  try {
    entries = await fs.readDir(dir);
  } catch {
    return [];
  }
  const files: string[] = [];
  for (const e of entries) {
    const full = path.join(dir, e.name);
    if (e.isDirectory && !e.isSymlink && depth < 8) files.push(...await tomlFilesBelow(fs, full, depth + 1));
    else if (e.isFile && e.name.endsWith(".toml")) files.push(full);
  }
  return files.sort();
}
