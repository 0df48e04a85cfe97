import * as path from "node:path";
import type { FileSystem } from "../platform/mod.ts";
import { type Diagnostic, warning } from "../shared/mod.ts";
import { claudeComponents } from "./claude_components.ts";
import { isObject, type PluginManifest } from "./manifest.ts";
import { containedRealPath } from "./manifest_path.ts";
import { pluginMcpServers } from "./mcp_projection.ts";
import type { PluginComponent } from "./plugin_types.ts";

export interface PluginContext {
  id: string;
  root: string;
  dataDir: string;
  manifest: PluginManifest;
}

export interface PluginCapabilities {
  skillRoots: string[];
  commandRoots: string[];
  agents: { name: string; path: string }[];
  mcpServers: { name: string; file: string; config: Record<string, unknown> }[];
  hookSources: { sourcePath: string; hooks: unknown }[];
  appConnectorIds: string[];
  /** Every component found, with what became of it. */
  components: PluginComponent[];
  diagnostics: Diagnostic[];
}

/** Reads what a manifest points at (PL-3 defaults, PL-10 projection); nothing outside the root. */
export async function loadCapabilities(fs: FileSystem, ctx: PluginContext): Promise<PluginCapabilities> {
  const diagnostics: Diagnostic[] = [];
  const warn = (message: string) => diagnostics.push(warning(`${ctx.id}: ${message}`, { subject: ctx.id }));
  const locate = async (relative: string, declared: boolean): Promise<string | null> => {
    const real = await containedRealPath(fs, ctx.root, relative);
    if (real === "outside") warn(`ignoring ./${relative}: it resolves outside the plugin root`);
    else if (real === null && declared) warn(`ignoring ./${relative}: it does not exist`);
    return real === "outside" ? null : real;
  };
  const readJson = async (relative: string, declared: boolean): Promise<unknown> => {
    const file = await locate(relative, declared);
    if (!file) return undefined;
    try {
      return JSON.parse(await fs.readTextFile(file));
    } catch (error) {
      warn(`ignoring ./${relative}: ${(error as Error).message}`);
      return undefined;
    }
  };
  const components: PluginComponent[] = [];
  const skillRoots = await findSkillRoots(fs, ctx, locate, warn);
  for (const root of skillRoots) {
    components.push({ kind: "skills", name: path.relative(ctx.root, root) || ".", status: "active" });
  }

  const mcp = ctx.manifest.mcpServers;
  const mcpFile = mcp?.kind === "inline" ? "plugin.json#mcpServers" : mcp?.path ?? ".mcp.json";
  const mcpRaw = mcp?.kind === "inline" ? mcp.servers : await readJson(mcpFile, !!mcp);
  const mcpServers = mcpRaw === undefined ? [] : pluginMcpServers(mcpRaw, mcpFile, warn);
  for (const s of mcpServers) components.push({ kind: "mcpServers", name: s.name, status: "active" });

  const hookSources = await findHookSources(ctx.manifest, readJson, warn);
  for (const h of hookSources) {
    components.push({
      kind: "hooks",
      name: h.sourcePath,
      status: "active",
      detail: "untrusted until trusted",
    });
  }

  const apps = await readJson(ctx.manifest.apps ?? ".app.json", ctx.manifest.apps !== undefined);
  const appConnectorIds = isObject(apps) && isObject(apps.apps)
    ? [
      ...new Set(
        Object.values(apps.apps).flatMap((a) =>
          isObject(a) && typeof a.id === "string" && a.id.trim() ? [a.id.trim()] : []
        ),
      ),
    ].sort()
    : [];
  for (const id of appConnectorIds) {
    components.push({
      kind: "apps",
      name: id,
      status: "unsupported",
      detail: "listed in the capability summary only",
    });
  }
  const claude = await claudeComponents(fs, ctx.manifest, locate);
  components.push(...claude.components);
  return {
    skillRoots,
    commandRoots: claude.commandRoots,
    agents: claude.agents,
    mcpServers,
    hookSources,
    appConnectorIds,
    components,
    diagnostics,
  };
}

/**
 * `skills/` (if a directory) plus the manifest's skill paths, sorted; with neither, a SKILL.md at
 * the plugin root makes the root itself a skill root (Claude Code's single-skill plugin).
 */
async function findSkillRoots(
  fs: FileSystem,
  ctx: PluginContext,
  locate: (relative: string, declared: boolean) => Promise<string | null>,
  warn: (message: string) => void,
): Promise<string[]> {
  const declared = ctx.manifest.skills;
  const hasDefault = (await fs.stat(path.join(ctx.root, "skills")))?.isDirectory;
  const skillPaths = hasDefault ? [...new Set(["skills", ...declared])] : declared;
  const roots: string[] = [];
  for (const relative of skillPaths) {
    const named = relative !== "skills" || declared.includes("skills");
    const real = await locate(relative, named);
    if (!real) continue;
    if ((await fs.stat(real))?.isDirectory) roots.push(real);
    else if (named) warn(`ignoring skills path ./${relative}: not a directory (it names a folder of skills)`);
  }
  if (skillPaths.length === 0 && (await fs.lstat(path.join(ctx.root, "SKILL.md")))?.isFile) {
    roots.push(await fs.realPath(ctx.root));
  }
  return roots;
}

async function findHookSources(
  manifest: PluginManifest,
  readJson: (relative: string, declared: boolean) => Promise<unknown>,
  warn: (message: string) => void,
): Promise<PluginCapabilities["hookSources"]> {
  const hookSources: PluginCapabilities["hookSources"] = [];
  for (const decl of manifest.hooks ?? [{ kind: "path" as const, path: "hooks/hooks.json" }]) {
    if (decl.kind === "inline") {
      const value = decl.value as Record<string, unknown>;
      const file = decl.origin === "marketplace" ? "marketplace.json" : "plugin.json";
      hookSources.push({
        sourcePath: `${file}#hooks[${decl.index}]`,
        hooks: isObject(value.hooks) ? value : { hooks: value },
      });
      continue;
    }
    const parsed = await readJson(decl.path, manifest.hooks !== undefined);
    if (parsed === undefined) continue;
    if (isObject(parsed) && isObject(parsed.hooks)) {
      hookSources.push({ sourcePath: decl.path, hooks: parsed });
    } else warn(`ignoring ./${decl.path}: expected {"hooks": {…}}`);
  }
  return hookSources;
}
