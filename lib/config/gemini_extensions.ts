import * as path from "node:path";
import type { FileSystem } from "../platform/mod.ts";
import { type Diagnostic, parseJsonText, warning } from "../shared/mod.ts";
import type { TrellisPaths } from "./paths.ts";
import { errorCode, readOncePerPaths } from "./read_once.ts";

/**
 * One installed Gemini CLI extension (#24 item 3), as Gemini CLI finds it: a folder under
 * `<geminiDir>/extensions/` holding a `gemini-extension.json` with a `name`, enabled for this
 * directory by `extensions/extension-enablement.json` (absent: enabled everywhere). Its components
 * are read by the subsystems that use them: hooks (`hooks/hooks.json`), MCP (`mcpServers`),
 * instructions (`contextFileName`, default `GEMINI.md`).
 */
export interface GeminiExtension {
  name: string;
  /** The extension's folder: `${extensionPath}` in its manifest and hooks. */
  dir: string;
  manifestFile: string;
  /** The manifest as written (an object). */
  manifest: Record<string, unknown>;
}

/**
 * The enabled extensions, by folder name, read once per resolved paths however many subsystems ask
 * (hooks, MCP, instructions, commands); a folder without a readable manifest is one warning naming
 * the file, given to the first caller that takes warnings (`diagnostics`) and to no other. Absent
 * `extensions/` costs one existence probe.
 */
export function installedGeminiExtensions(
  fs: FileSystem,
  paths: TrellisPaths,
  diagnostics?: Diagnostic[],
): GeminiExtension[] {
  if (!diagnostics) return readExtensions.peek(fs, paths).extensions;
  const read = readExtensions(fs, paths);
  diagnostics.push(...read.diagnostics);
  return read.extensions;
}

const readExtensions = readOncePerPaths((fs, paths) => {
  const diagnostics: Diagnostic[] = [];
  return { extensions: listExtensions(fs, paths.geminiDir, paths.cwd, diagnostics), diagnostics };
});

function listExtensions(
  fs: FileSystem,
  geminiDir: string,
  cwd: string,
  diagnostics: Diagnostic[],
): GeminiExtension[] {
  const root = path.join(geminiDir, "extensions");
  if (!fs.sync.exists(root)) return [];
  let entries;
  try {
    entries = fs.sync.readDir(root);
  } catch {
    return [];
  }
  const enablement = readEnablement(fs, path.join(root, "extension-enablement.json"), diagnostics);
  const found: GeminiExtension[] = [];
  for (const entry of entries.filter((e) => e.isDirectory).sort((a, b) => a.name.localeCompare(b.name))) {
    const dir = path.join(root, entry.name);
    const manifestFile = path.join(dir, "gemini-extension.json");
    const text = readOptionalText(fs, manifestFile, diagnostics);
    if (text === undefined) continue;
    const manifest = parseJsonText(text);
    if (!manifest.ok || !isRecord(manifest.value) || typeof manifest.value.name !== "string") {
      const why = manifest.ok ? `expected an object with a "name"` : `invalid JSON (${manifest.message})`;
      diagnostics.push(
        warning(`Cannot load Gemini CLI extension "${manifestFile}": ${why}`, { file: manifestFile }),
      );
      continue;
    }
    if (!extensionEnabled(enablement, manifest.value.name, cwd)) continue;
    found.push({ name: manifest.value.name, dir, manifestFile, manifest: manifest.value });
  }
  return found;
}

/** Gemini's extension variables: `${extensionPath}` and `${/}` (the path separator). */
export function hydrateExtensionVars(text: string, extensionPath: string): string {
  return text.replaceAll("${extensionPath}", () => extensionPath).replaceAll("${/}", () => path.sep);
}

/**
 * The context files an extension contributes, as Gemini reads them: `contextFileName` (a name or
 * a list, relative to the extension's folder), else `GEMINI.md` there when it exists.
 */
export function geminiContextFiles(extension: GeminiExtension): string[] {
  const named = extension.manifest.contextFileName;
  const names = typeof named === "string"
    ? [named]
    : Array.isArray(named)
    ? named.filter((n): n is string => typeof n === "string")
    : ["GEMINI.md"];
  return names.map((name) => path.resolve(extension.dir, hydrateExtensionVars(name, extension.dir)));
}

/** `{ "<extension name>": { "overrides": ["/dir/*", "!/other/"] } }`: the last rule matching cwd wins. */
type Enablement = Record<string, string[]>;

function readEnablement(fs: FileSystem, file: string, diagnostics: Diagnostic[]): Enablement {
  const text = readOptionalText(fs, file, diagnostics);
  if (text === undefined) return {};
  const parsed = parseJsonText(text);
  if (!parsed.ok || !isRecord(parsed.value)) {
    const why = parsed.ok ? "expected an object" : `invalid JSON (${parsed.message})`;
    diagnostics.push(warning(`Cannot read "${file}": ${why}; every extension counts as enabled`, { file }));
    return {};
  }
  const out: Enablement = {};
  for (const [name, entry] of Object.entries(parsed.value)) {
    const overrides = isRecord(entry) && Array.isArray(entry.overrides) ? entry.overrides : [];
    out[name] = overrides.filter((r): r is string => typeof r === "string");
  }
  return out;
}

function extensionEnabled(enablement: Enablement, name: string, cwd: string): boolean {
  let enabled = true;
  const here = withSlashes(cwd);
  for (const rule of enablement[name] ?? []) {
    const disable = rule.startsWith("!");
    let base = disable ? rule.slice(1) : rule;
    const subdirs = base.endsWith("*");
    if (subdirs) base = base.slice(0, -1);
    base = withSlashes(base);
    if (subdirs ? here.startsWith(base) : here === base) enabled = !disable;
  }
  return enabled;
}

function withSlashes(dir: string): string {
  return `${dir.startsWith("/") ? "" : "/"}${dir}${dir.endsWith("/") ? "" : "/"}`;
}

/**
 * A file another vendor may or may not have written: its text, or undefined when it is not there;
 * any other failure is one warning naming the file (`what` says what kind of file it is).
 */
export function readOptionalText(
  fs: FileSystem,
  file: string,
  diagnostics: Diagnostic[],
  what = "",
): string | undefined {
  try {
    return fs.sync.readTextFile(file);
  } catch (error) {
    const code = errorCode(error);
    if (code !== "ENOENT" && code !== "ENOTDIR") {
      diagnostics.push(warning(`Cannot read ${what}"${file}": ${(error as Error).message}`, { file }));
    }
    return undefined;
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
