import * as path from "node:path";
import { parse as parseToml, TomlError } from "smol-toml";
import { type Diagnostic, settle, UsageError } from "../shared/mod.ts";
import type { FileSystem } from "../platform/mod.ts";
import { BUILT_IN_DEFAULTS } from "./defaults.ts";
import { homeWorkspaceSandbox } from "./home_workspace.ts";
import { isTable, mergeInto } from "./merge.ts";
import { parseOverride } from "./overrides.ts";
import { codexModelLayer } from "./codex_model_layer.ts";
import { checkProjectLayers } from "./project_layers.ts";
import { resolvePaths } from "./paths.ts";
import type { TrellisConfig } from "./schema/mod.ts";
import { validateLayer } from "./validate.ts";
import { parseTomlCached } from "./toml_cache.ts";

export type { ConfigLayer, LayerKind, LoadedConfig } from "./loaded_config.ts";
import type { ConfigLayer, LayerKind, LoadedConfig } from "./loaded_config.ts";

export interface LoadConfigOptions {
  cwd: string;
  env: (name: string) => string | undefined;
  /** `-c key.path=value` flags, in order. */
  overrides?: string[];
  profile?: string;
  /**
   * A file that does not parse or validate is left out with an error diagnostic instead of failing
   * the load: `trellis doctor` reports it and still checks everything else (#17 item 5).
   */
  skipInvalidFiles?: boolean;
}

/**
 * Reads one TOML file; absent → null; malformed → UsageError naming file and line. The read blocks:
 * every command reads a few of these before anything else can happen.
 */
export function readTomlFile(
  fs: FileSystem,
  file: string,
  cacheDir?: string,
): { raw: Record<string, unknown>; text: string } | null {
  let text: string;
  try {
    text = fs.sync.readTextFile(file);
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === "ENOENT" || code === "ENOTDIR") return null;
    throw new UsageError(`Cannot read config "${file}": ${(error as Error).message}`, { file });
  }
  return parseTomlText(fs, file, text, cacheDir);
}

/**
 * A TOML layer's text, parsed (through `$TRELLIS_HOME/cache/toml/` when `cacheDir` is given);
 * malformed → UsageError naming file and line.
 */
function parseTomlText(
  fs: FileSystem,
  file: string,
  text: string,
  cacheDir?: string,
): { raw: Record<string, unknown>; text: string } {
  try {
    const raw = parseTomlCached(fs, cacheDir, file, text, (t) => parseToml(t) as Record<string, unknown>);
    return { raw, text };
  } catch (error) {
    if (error instanceof TomlError) {
      const first = error.message.split("\n")[0];
      throw new UsageError(`Invalid TOML in ${file}:${error.line}:${error.column}: ${first}`, {
        file,
        line: error.line,
      }, "config_parse");
    }
    throw error;
  }
}

/** Builds the layered configuration: defaults < /etc < user < trusted project dirs < profile < -c. */
export function loadConfig(fs: FileSystem, options: LoadConfigOptions): Promise<LoadedConfig> {
  return settle(() => loadConfigSync(fs, options));
}

function loadConfigSync(fs: FileSystem, options: LoadConfigOptions): LoadedConfig {
  const diagnostics: Diagnostic[] = [];
  const layers: ConfigLayer[] = [{ kind: "default", source: "built-in", table: BUILT_IN_DEFAULTS }];
  const basePaths = resolvePaths(fs, { cwd: options.cwd, env: options.env });
  const tomlCache = path.join(basePaths.home, "cache", "toml");

  const addFile = (kind: LayerKind, file: string, dir?: string, text?: string) => {
    try {
      addFileOrThrow(kind, file, dir, text);
    } catch (error) {
      if (!options.skipInvalidFiles || !(error instanceof UsageError)) throw error;
      diagnostics.push({ level: "error", message: `Skipped ${file}: ${error.message}`, file });
    }
  };
  const addFileOrThrow = (kind: LayerKind, file: string, dir?: string, text?: string) => {
    const read = text === undefined
      ? readTomlFile(fs, file, tomlCache)
      : parseTomlText(fs, file, text, tomlCache);
    if (!read) return;
    const { value, diagnostics: d, invalidMcpServers } = validateLayer(read.raw, { file, text: read.text });
    diagnostics.push(...d);
    layers.push({
      kind,
      source: file,
      table: value,
      dir,
      ...(invalidMcpServers.length ? { invalidMcpServers } : {}),
    });
  };

  addFile("system", path.join(basePaths.systemDir, "config.toml"));
  addFile("user", basePaths.userConfig);

  const session: Record<string, unknown> = {};
  for (const spec of options.overrides ?? []) mergeInto(session, parseOverride(spec), "-c", new Map());
  const sessionLayer = session && Object.keys(session).length > 0
    ? validateLayer(session, { file: "-c" })
    : undefined;
  diagnostics.push(...(sessionLayer?.diagnostics ?? []));

  // Codex's model keys, read in place beneath Trellis's own user config (issue #21 item 8); the
  // switch is the user's (`[compat] codex_config`), read from the layers a repository cannot write.
  const ownSoFar = [...layers, ...(sessionLayer ? [{ table: sessionLayer.value }] : [])];
  const codexSwitch = ownSoFar.map((l) => l.table.compat?.codex_config).filter((v) => v !== undefined).at(-1);
  if (codexSwitch !== false) {
    const codex = codexModelLayer(fs, basePaths, ownSoFar.map((l) => l.table));
    diagnostics.push(...codex.diagnostics);
    if (codex.layer) {
      const userAt = layers.findIndex((l) => l.kind === "user");
      layers.splice(userAt === -1 ? layers.length : userAt, 0, codex.layer);
    }
  }

  // Trust and root markers come only from layers a repository cannot write.
  const trusted = [...layers, ...(sessionLayer ? [{ table: sessionLayer.value }] : [])];
  const markers = trusted.map((l) => l.table.project_root_markers).filter((m) => m !== undefined).at(-1);
  const paths = markers ? resolvePaths(fs, { cwd: options.cwd, env: options.env, markers }) : basePaths;
  // Field by field: `-c projects."/p".trust_level=…` keeps the hashes the user config recorded.
  const projects: Record<string, { trust_level?: string; layer_hashes?: Record<string, string> }> = {};
  for (const layer of trusted) {
    for (const [dir, entry] of Object.entries(layer.table.projects ?? {})) {
      projects[dir] = { ...projects[dir], ...entry };
    }
  }
  const trustedDir = [paths.projectRoot, paths.cwd].find((dir) => projects[dir]?.trust_level === "trusted");
  const projectTrusted = trustedDir !== undefined;
  const projectLayers = trustedDir === undefined ? new Map<string, string>() : checkProjectLayers(
    fs,
    paths,
    { dir: trustedDir, layerHashes: projects[trustedDir].layer_hashes },
    diagnostics,
  );

  for (const dir of paths.projectDirs) {
    const configDir = path.join(dir, ".trellis");
    const file = path.join(configDir, "config.toml");
    if (projectTrusted) {
      const text = projectLayers.get(file);
      if (text !== undefined) addFile("project", file, configDir, text);
    } else if (fs.sync.lstat(file)) {
      diagnostics.push({
        level: "info",
        message: `Skipped ${file}: this project is not trusted (run \`trellis project trust\` to load it)`,
        file,
      });
    }
  }

  const merged: Record<string, unknown> = {};
  const provenance = new Map<string, string>();
  for (const layer of layers) {
    mergeInto(merged, layer.table as Record<string, unknown>, layer.source, provenance);
  }
  const profileName = options.profile ?? (session.profile as string | undefined) ??
    (merged.profile as string | undefined);
  if (profileName) {
    const profile = (merged.profiles as Record<string, unknown> | undefined)?.[profileName];
    if (!isTable(profile)) {
      const known = Object.keys((merged.profiles as object | undefined) ?? {});
      throw new UsageError(
        `Cannot use profile "${profileName}": no [profiles.${profileName}] table${
          known.length ? ` (known: ${known.join(", ")})` : ""
        }`,
        { field: `profiles.${profileName}` },
      );
    }
    const source = `profile ${profileName}`;
    layers.push({ kind: "profile", source, table: profile as TrellisConfig });
    mergeInto(merged, profile, source, provenance);
  }
  if (sessionLayer) {
    const invalidMcpServers = sessionLayer.invalidMcpServers;
    layers.push({
      kind: "session",
      source: "-c",
      table: sessionLayer.value,
      ...(invalidMcpServers.length ? { invalidMcpServers } : {}),
    });
    mergeInto(merged, sessionLayer.value as Record<string, unknown>, "-c", provenance);
  }
  const homeWarning = homeWorkspaceSandbox(merged as TrellisConfig, provenance, paths);
  return {
    config: merged as TrellisConfig,
    layers,
    provenance,
    diagnostics,
    paths,
    projectTrusted,
    projectLayers,
    profile: profileName,
    invalidMcpServers: layers.flatMap((l) => l.invalidMcpServers ?? []),
    ...(homeWarning ? { startWarnings: [homeWarning] } : {}),
  };
}

/** Tables of the layers a project cannot write (user and session flags), low → high. */
export function userControlledLayers(loaded: LoadedConfig): ConfigLayer[] {
  return loaded.layers.filter((l) => l.kind === "user" || l.kind === "session");
}
