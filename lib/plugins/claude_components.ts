import * as path from "node:path";
import type { FileSystem } from "../platform/mod.ts";
import { isObject, type PluginManifest, UNSUPPORTED_COMPONENTS } from "./manifest.ts";
import type { PluginComponent } from "./plugin_types.ts";

/**
 * Claude Code's other components: `commands/*.md` (explicit-only skills, handed to the skills
 * subsystem as command roots), `agents/*.md` (subagent definitions, loaded by lib/agents) and the
 * ones Trellis records without running (`.lsp.json`, `output-styles/`, `monitors/monitors.json`, …).
 */

type Locate = (relative: string, declared: boolean) => Promise<string | null>;

export interface ClaudeComponents {
  commandRoots: string[];
  agents: { name: string; path: string }[];
  components: PluginComponent[];
}

/** Where each unsupported component lives when the manifest does not say (Claude Code's layout). */
const CONVENTIONAL: Partial<Record<string, string>> = {
  lspServers: ".lsp.json",
  outputStyles: "output-styles",
  monitors: "monitors/monitors.json",
};

const UNSUPPORTED_WHY: Record<string, string> = {
  lspServers: "LSP servers are not run by Trellis",
  outputStyles: "output styles are not supported",
  monitors: "monitors are not supported",
  userConfig: "plugin user configuration is not supported",
  channels: "channels are not supported",
  dependencies: "plugin dependencies are not resolved",
};

export async function claudeComponents(
  fs: FileSystem,
  manifest: PluginManifest,
  locate: Locate,
): Promise<ClaudeComponents> {
  const components: PluginComponent[] = [];
  const commandRoots: string[] = [];
  // A declared `commands` (or `agents`) replaces the default directory, as in Claude Code.
  for (const relative of manifest.commands ?? ["commands"]) {
    const real = await locate(relative, manifest.commands !== undefined);
    if (!real) continue;
    const info = await fs.stat(real);
    if (info?.isDirectory) {
      commandRoots.push(real);
      for (const file of await markdownFiles(fs, real)) {
        components.push({
          kind: "commands",
          name: `${manifest.name}:${file.replace(/\.md$/, "")}`,
          status: "active",
          detail: `${relative}/${file}`,
        });
      }
    } else {
      components.push({
        kind: "commands",
        name: relative,
        status: "unsupported",
        detail: "a command file listed on its own is not supported yet; list its directory",
      });
    }
  }
  const agents: { name: string; path: string }[] = [];
  for (const relative of manifest.agents ?? ["agents"]) {
    const real = await locate(relative, manifest.agents !== undefined);
    if (!real) continue;
    const info = await fs.stat(real);
    const files = info?.isDirectory
      ? (await markdownFiles(fs, real)).map((f) => path.join(real, f))
      : real.endsWith(".md")
      ? [real]
      : [];
    for (const file of files) agents.push({ name: path.basename(file, ".md"), path: file });
  }
  for (const agent of agents) {
    components.push({
      kind: "agents",
      name: agent.name,
      status: "active",
      detail: `subagent ${manifest.name}:${agent.name}`,
    });
  }
  components.push(...await unsupportedComponents(fs, manifest, locate));
  return { commandRoots, agents, components };
}

async function unsupportedComponents(
  fs: FileSystem,
  manifest: PluginManifest,
  locate: Locate,
): Promise<PluginComponent[]> {
  const out: PluginComponent[] = [];
  for (const kind of UNSUPPORTED_COMPONENTS) {
    const declared = manifest.unsupported?.[kind];
    let names: string[] = [];
    if (isObject(declared)) names = Object.keys(declared);
    else if (typeof declared === "string") names = await namesInFile(fs, declared, locate);
    else if (Array.isArray(declared)) {
      names = declared.map((d) => typeof d === "string" ? d : JSON.stringify(d));
    } else if (declared === undefined && CONVENTIONAL[kind] && await locate(CONVENTIONAL[kind]!, false)) {
      names = await namesInFile(fs, `./${CONVENTIONAL[kind]}`, locate);
    } else if (declared !== undefined) names = [kind];
    for (const name of names) out.push({ kind, name, status: "unsupported", detail: UNSUPPORTED_WHY[kind] });
  }
  return out;
}

/** The keys of a JSON map file (`.lsp.json`: server name → config), else the path itself. */
async function namesInFile(fs: FileSystem, declared: string, locate: Locate): Promise<string[]> {
  const relative = declared.replace(/^\.\//, "");
  const real = await locate(relative, false);
  if (real && relative.endsWith(".json")) {
    try {
      const parsed = JSON.parse(await fs.readTextFile(real));
      if (isObject(parsed) && Object.keys(parsed).length) return Object.keys(parsed);
    } catch {
      // reported by name below: the component is recorded either way
    }
  }
  return [relative];
}

async function markdownFiles(fs: FileSystem, dir: string): Promise<string[]> {
  return (await fs.readDir(dir)).filter((e) => e.isFile && e.name.endsWith(".md")).map((e) => e.name).sort();
}
