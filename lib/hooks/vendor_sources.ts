import * as path from "node:path";
import {
  compatEnabled,
  installedGeminiExtensions,
  type LoadedConfig,
  readOptionalText,
} from "../config/mod.ts";
import type { FileSystem } from "../platform/mod.ts";
import { type Diagnostic, parseJsoncText, parseJsonText, warning } from "../shared/mod.ts";
import type { HookSource } from "./hook_handler.ts";
import { copilotSource, geminiSource } from "./vendor_files.ts";

/**
 * Gemini CLI's and Copilot CLI's hook files, read in place (#24 item 3), each behind its `[compat]`
 * switch: `~/.gemini/settings.json`, the installed extensions' `hooks/hooks.json`, a trusted
 * project's `.gemini/settings.json`; `~/.copilot/hooks/*.json` and a trusted project's
 * `.github/hooks/*.json`. A project's files load as checked against its trust record, else each is
 * one "skipped" note. A vendor whose folders are absent costs one existence probe per folder.
 */
export function discoverVendorSources(
  fs: FileSystem,
  loaded: LoadedConfig,
  diagnostics: Diagnostic[],
): HookSource[] {
  const sources: HookSource[] = [];
  const { geminiDir, copilotHome, projectRoot } = loaded.paths;
  const push = (source: HookSource | undefined) => source && sources.push(source);
  const gemini = compatEnabled(loaded.config, "gemini");
  const copilot = compatEnabled(loaded.config, "copilot");
  if (gemini && fs.sync.exists(geminiDir)) {
    const file = path.join(geminiDir, "settings.json");
    push(
      geminiSettingsSource(readText(fs, file, diagnostics), file, "gemini_user", projectRoot, diagnostics),
    );
    sources.push(...geminiExtensionSources(fs, loaded, projectRoot, diagnostics));
  }
  if (copilot) {
    for (const file of jsonFilesIn(fs, path.join(copilotHome, "hooks"))) {
      push(
        copilotFileSource(readText(fs, file, diagnostics), file, "copilot_user", projectRoot, diagnostics),
      );
    }
  }
  const projectGemini = path.join(projectRoot, ".gemini", "settings.json");
  const hooksDir = path.join(projectRoot, ".github", "hooks");
  if (!loaded.projectTrusted) {
    const held = [...(gemini ? [projectGemini] : []), ...(copilot ? jsonFilesIn(fs, hooksDir) : [])];
    for (const file of held.filter((f) => fs.sync.exists(f))) noteUntrusted(file, diagnostics);
    return sources;
  }
  // A trusted project's files are read as checked against its trust record (#20), never again.
  const approved = loaded.projectLayers;
  if (gemini) {
    const text = approved.get(projectGemini);
    push(geminiSettingsSource(text, projectGemini, "gemini_project", projectRoot, diagnostics));
  }
  if (copilot) {
    const files = [...approved.keys()].filter((f) => path.dirname(f) === hooksDir).sort();
    for (const file of files) {
      push(copilotFileSource(approved.get(file), file, "copilot_project", projectRoot, diagnostics));
    }
  }
  return sources;
}

/** A Gemini settings file (comments and trailing commas allowed, as Gemini reads it): its `hooks`. */
function geminiSettingsSource(
  text: string | undefined,
  file: string,
  kind: "gemini_user" | "gemini_project",
  baseDir: string,
  diagnostics: Diagnostic[],
): HookSource | undefined {
  if (text === undefined) return undefined;
  const parsed = parseJsoncText(text);
  if (!parsed.ok) {
    diagnostics.push(warning(`Cannot load hooks "${file}": invalid JSON (${parsed.message})`, { file }));
    return undefined;
  }
  const settings = parsed.value;
  if (!isRecord(settings) || settings.hooks === undefined) return undefined;
  const config = isRecord(settings.hooksConfig) ? settings.hooksConfig : {};
  if (config.enabled === false) {
    diagnostics.push({
      level: "info",
      message: `Skipped hooks in ${file}: hooksConfig.enabled is false`,
      file,
    });
    return undefined;
  }
  if (!isRecord(settings.hooks)) {
    diagnostics.push(
      warning(`Cannot load hooks "${file}": "hooks" is not an object`, { file, field: "hooks" }),
    );
    return undefined;
  }
  const disabled = Array.isArray(config.disabled) ? config.disabled.filter((d) => typeof d === "string") : [];
  return geminiSource(settings.hooks, { kind, file, baseDir, disabled }, diagnostics);
}

/**
 * Each installed extension enabled for this directory (lib/config's one reader of them): its
 * `hooks/hooks.json`, `${extensionPath}` filled in, the files its commands name under the
 * extension covered by their content hash.
 */
function geminiExtensionSources(
  fs: FileSystem,
  loaded: LoadedConfig,
  baseDir: string,
  diagnostics: Diagnostic[],
): HookSource[] {
  const sources: HookSource[] = [];
  for (const extension of installedGeminiExtensions(fs, loaded.paths, diagnostics)) {
    const { dir } = extension;
    const file = path.join(dir, "hooks", "hooks.json");
    const text = readText(fs, file, diagnostics);
    if (text === undefined) continue;
    const parsed = parseJsonText(text);
    if (!parsed.ok || !isRecord(parsed.value) || !isRecord(parsed.value.hooks)) {
      const why = parsed.ok ? `expected an object with a "hooks" object` : `invalid JSON (${parsed.message})`;
      diagnostics.push(warning(`Cannot load hooks "${file}": ${why}`, { file }));
      continue;
    }
    const options = {
      kind: "gemini_extension" as const,
      file,
      baseDir,
      contentRoots: [dir],
      extensionPath: dir,
    };
    const source = geminiSource(parsed.value.hooks, options, diagnostics);
    if (source) sources.push(source);
  }
  return sources;
}

function copilotFileSource(
  text: string | undefined,
  file: string,
  kind: "copilot_user" | "copilot_project",
  baseDir: string,
  diagnostics: Diagnostic[],
): HookSource | undefined {
  if (text === undefined) return undefined;
  const parsed = parseJsonText(text);
  if (!parsed.ok) {
    diagnostics.push(warning(`Cannot load hooks "${file}": invalid JSON (${parsed.message})`, { file }));
    return undefined;
  }
  return copilotSource(parsed.value, { kind, file, baseDir }, diagnostics);
}

/** `*.json` files directly in `dir`, sorted (Copilot loads them in order); none when it is absent. */
function jsonFilesIn(fs: FileSystem, dir: string): string[] {
  if (!fs.sync.exists(dir)) return [];
  try {
    return fs.sync.readDir(dir).filter((e) => !e.isDirectory && e.name.endsWith(".json"))
      .map((e) => path.join(dir, e.name)).sort();
  } catch {
    return [];
  }
}

function readText(fs: FileSystem, file: string, diagnostics: Diagnostic[]): string | undefined {
  return readOptionalText(fs, file, diagnostics, "hooks file ");
}

function noteUntrusted(file: string, diagnostics: Diagnostic[]): void {
  diagnostics.push({
    level: "info",
    message:
      `Skipped hooks in ${file}: this project is not trusted (run \`trellis project trust\` to load it)`,
    file,
  });
}

function isRecord(value: unknown): value is Record<string, any> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
