import * as path from "node:path";
import type { FileSystem } from "../platform/mod.ts";
import { type Diagnostic, warning } from "../shared/mod.ts";
import { isObject, type PluginManifest } from "./manifest.ts";
import { containedRealPath } from "./manifest_path.ts";
import { projectMcpServers } from "./mcp_projection.ts";

export interface PluginContext {
  id: string;
  root: string;
  dataDir: string;
  manifest: PluginManifest;
}

export interface PluginCapabilities {
  skillRoots: string[];
  mcpServers: { name: string; config: Record<string, unknown> }[];
  hookSources: { sourcePath: string; hooks: unknown }[];
  appConnectorIds: string[];
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

  const skillRoots: string[] = [];
  const skillPaths = (await fs.stat(path.join(ctx.root, "skills")))?.isDirectory
    ? [...new Set(["skills", ...ctx.manifest.skills])]
    : ctx.manifest.skills;
  for (const relative of skillPaths) {
    const real = await locate(relative, relative !== "skills" || ctx.manifest.skills.includes("skills"));
    if (real && (await fs.stat(real))?.isDirectory) skillRoots.push(real);
  }

  const mcp = ctx.manifest.mcpServers;
  const mcpRaw = mcp?.kind === "inline" ? mcp.servers : await readJson(mcp?.path ?? ".mcp.json", !!mcp);
  const mcpServers = mcpRaw === undefined ? [] : projectMcpServers(mcpRaw, ctx, warn);

  const hookSources: PluginCapabilities["hookSources"] = [];
  for (const decl of ctx.manifest.hooks ?? [{ kind: "path" as const, path: "hooks/hooks.json" }]) {
    if (decl.kind === "inline") {
      const value = decl.value as Record<string, unknown>;
      hookSources.push({
        sourcePath: `plugin.json#hooks[${decl.index}]`,
        hooks: isObject(value.hooks) ? value : { hooks: value },
      });
      continue;
    }
    const parsed = await readJson(decl.path, ctx.manifest.hooks !== undefined);
    if (parsed === undefined) continue;
    if (isObject(parsed) && isObject(parsed.hooks)) {
      hookSources.push({ sourcePath: decl.path, hooks: parsed });
    } else warn(`ignoring ./${decl.path}: expected {"hooks": {…}}`);
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
  return { skillRoots, mcpServers, hookSources, appConnectorIds, diagnostics };
}
