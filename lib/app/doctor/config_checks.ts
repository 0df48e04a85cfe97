import * as path from "node:path";
import { type LoadedConfig, readTomlFile, validateLayer } from "../../config/mod.ts";
import type { FileSystem } from "../../platform/mod.ts";
import { TrellisError } from "../../shared/mod.ts";
import { type DoctorRow, row } from "./rows.ts";

/**
 * Each config file on its own — system, user, every project `.trellis/config.toml` — parsed and
 * validated as the loader would, so a broken layer is named even though the load left it out.
 */
export function configLayerRows(fs: FileSystem, loaded: LoadedConfig): DoctorRow[] {
  const { paths } = loaded;
  const files: [string, string][] = [
    ["system", path.join(paths.systemDir, "config.toml")],
    ["user", paths.userConfig],
    ...paths.projectDirs.map((dir) =>
      ["project", path.join(dir, ".trellis", "config.toml")] as [string, string]
    ),
  ];
  const rows: DoctorRow[] = [];
  for (const [kind, file] of files) {
    if (!fs.sync.lstat(file)) continue;
    const check = `config ${kind}`;
    if (kind === "project" && !loaded.projectTrusted) {
      rows.push(row("skip", check, `${file}: not loaded, the project is not trusted`));
      continue;
    }
    if (kind === "project" && !loaded.projectLayers.has(file)) {
      rows.push(row(
        "warn",
        check,
        `${file}: not loaded, it is new, changed or unreadable since the project was trusted`,
        "read it, then `trellis project trust`",
      ));
      continue;
    }
    try {
      const read = readTomlFile(fs, file);
      if (!read) continue;
      const { diagnostics } = validateLayer(read.raw, { file, text: read.text });
      rows.push(
        diagnostics.length === 0
          ? row("ok", check, `${file}: valid`)
          : row("warn", check, `${file}: ${diagnostics.map((d) => d.message).join("; ")}`, `edit ${file}`),
      );
    } catch (error) {
      const line = error instanceof TrellisError && typeof error.data.line === "number"
        ? `:${error.data.line}`
        : "";
      rows.push(
        row("fail", check, (error as Error).message, `fix ${file}${line} (this layer is ignored until then)`),
      );
    }
  }
  if (rows.length === 0) rows.push(row("ok", "config", "no config files: built-in defaults"));
  return rows;
}

/** Whether this project's own config, hooks and MCP servers load (they do only once trusted). */
export function trustRow(fs: FileSystem, loaded: LoadedConfig): DoctorRow {
  const root = loaded.paths.projectRoot;
  if (loaded.projectTrusted) return row("ok", "trust", `${root} is trusted: its .trellis config loads`);
  // Trust is recorded in the user's config.toml: when that file was left out, whether this project
  // is trusted is unknown, and `trellis project trust` cannot edit it either.
  const userConfig = loaded.paths.userConfig;
  if (loaded.diagnostics.some((d) => d.level === "error" && d.file === userConfig)) {
    return row(
      "fail",
      "trust",
      `unknown: ${userConfig}, which records project trust, did not load`,
      `fix ${userConfig} first (see its config row)`,
    );
  }
  const projectFiles = loaded.paths.projectDirs.flatMap((dir) =>
    [path.join(dir, ".trellis", "config.toml"), path.join(dir, ".mcp.json")].filter((f) => fs.sync.lstat(f))
  );
  return projectFiles.length > 0
    ? row(
      "warn",
      "trust",
      `${root} is not trusted: ${projectFiles.join(", ")} not loaded`,
      `trellis project trust (in ${root}) once you have read them`,
    )
    : row("ok", "trust", `${root} is not trusted (it has no project config to load)`);
}
