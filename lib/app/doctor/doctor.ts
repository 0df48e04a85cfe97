import * as path from "node:path";
import { DEFAULT_SANDBOX_MODE, type LoadedConfig } from "../../config/mod.ts";
import { doctorHooks, type LoadedHooks } from "../../hooks/mod.ts";
import { detectSandbox, type Platform } from "../../platform/mod.ts";
import { installedPluginIds, storeLayout, verifyPlugin } from "../../plugins/mod.ts";
import type { Diagnostic } from "../../shared/mod.ts";
import type { SkillsSnapshot } from "../../skills/mod.ts";
import type { Workspace } from "../workspace.ts";
import { configLayerRows, trustRow } from "./config_checks.ts";
import { mcpRows } from "./mcp_checks.ts";
import { type DoctorReport, type DoctorRow, row } from "./rows.ts";

export interface DoctorOptions {
  /** Opened with `skipInvalidFiles`: a broken layer is reported, the rest still checked. */
  workspace: Workspace;
  /** Per MCP server and per hook: the longest doctor waits (default 10 s). */
  timeoutSec?: number;
}

/**
 * `trellis doctor` (#17 item 5): the checks each subsystem already has — config layers, project
 * trust, the sandbox self-check, every MCP server's start and tool list, hooks doctor, skills doctor,
 * plugin verify — run at once, as one table with a fix for each row that is not ok.
 */
export async function runDoctor(options: DoctorOptions): Promise<DoctorReport> {
  const ws = options.workspace;
  const { platform, loaded } = ws;
  const timeoutSec = options.timeoutSec ?? 10;
  const plugins = await ws.plugins();
  const groups = await Promise.all([
    Promise.resolve([...configLayerRows(platform.fs, loaded), trustRow(platform.fs, loaded)]),
    sandboxRows(platform, loaded),
    ws.mcpCatalog().then(({ catalog }) => mcpRows(platform, loaded, catalog, timeoutSec * 1000)),
    ws.hooks().then((hooks) => hookRows(platform, loaded, hooks, timeoutSec)),
    ws.skills().then(({ snapshot }) => skillRows(snapshot)),
    pluginRows(platform, loaded, plugins.diagnostics),
  ]);
  const rows = groups.flat();
  return { rows, failed: rows.some((r) => r.status === "fail") };
}

/** The bwrap self-check a session runs, fresh (the on-disk verdict cache is not consulted). */
async function sandboxRows(platform: Platform, loaded: LoadedConfig): Promise<DoctorRow[]> {
  const mode = loaded.config.sandbox_mode ?? DEFAULT_SANDBOX_MODE;
  const status = await detectSandbox(platform);
  if (status.available) {
    return [
      row(
        "ok",
        "sandbox",
        `bwrap ${status.bwrap} passed the self-check (${status.flags.join(" ") || "no extra flags"})`,
      ),
    ];
  }
  if (mode === "danger-full-access") {
    return [
      row("ok", "sandbox", `not needed (sandbox_mode = "danger-full-access"); bwrap: ${status.reason}`),
    ];
  }
  return [row(
    "fail",
    "sandbox",
    `${status.reason}: shell commands cannot be sandboxed (sandbox_mode = "${mode}")`,
    status.reason.includes("not found")
      ? "install bubblewrap (apt install bubblewrap, dnf install bubblewrap)"
      : "allow unprivileged user namespaces (sysctl kernel.unprivileged_userns_clone=1; " +
        "in a container, run it with --security-opt seccomp=unconfined or as root)",
  )];
}

async function hookRows(
  platform: Platform,
  loaded: LoadedConfig,
  { handlers, diagnostics }: LoadedHooks,
  timeoutSec: number,
): Promise<DoctorRow[]> {
  const rows = diagnosticRows("hooks", diagnostics, "fix the hook file named");
  const findings = await doctorHooks(handlers, {
    platform,
    cwd: loaded.paths.cwd,
    maxTimeoutSec: timeoutSec,
  });
  for (const f of findings.filter((f) => !f.ok)) {
    rows.push(
      row(
        "fail",
        `hook ${f.key}`,
        `${f.event}: ${f.command}: ${f.problem}`,
        `fix the command, or trellis hooks disable ${f.key}`,
      ),
    );
  }
  const review = handlers.filter((h) => h.trust === "untrusted" || h.trust === "modified");
  if (review.length > 0) {
    rows.push(row(
      "warn",
      "hooks",
      `${review.length} hook(s) not run until reviewed: ${
        review.map((h) => `${h.key}${h.trustReason ? ` (${h.trustReason})` : ""}`).join(", ")
      }`,
      "trellis hooks list, then trellis hooks trust KEY",
    ));
  }
  if (findings.every((f) => f.ok)) rows.push(row("ok", "hooks", `${findings.length} runnable hook(s) work`));
  return rows;
}

function skillRows(snapshot: SkillsSnapshot): DoctorRow[] {
  const rows = snapshot.errors.map((e) =>
    row("fail", `skill ${path.basename(path.dirname(e.path))}`, `${e.path}: ${e.message}`, `fix ${e.path}`)
  );
  for (const w of snapshot.warnings) rows.push(row("warn", "skills", w, "trellis skills doctor explains it"));
  rows.push(row("ok", "skills", `${snapshot.enabledSkills().length} skills enabled`));
  return rows;
}

async function pluginRows(
  platform: Platform,
  loaded: LoadedConfig,
  diagnostics: Diagnostic[],
): Promise<DoctorRow[]> {
  const rows = diagnosticRows("plugins", diagnostics, "trellis plugin list shows the plugin named");
  const layout = storeLayout(loaded.paths.home);
  const ids = await installedPluginIds(platform.fs, layout);
  for (const id of ids) {
    const result = await verifyPlugin(platform.fs, layout, id);
    if (result.status === "ok") continue;
    const odd = result.unexpected.length ? `; unexpected entries: ${result.unexpected.join(", ")}` : "";
    rows.push(row(
      "fail",
      `plugin ${id.key}`,
      `${result.status}${
        result.status === "modified" ? ` since install (expected ${result.expected})` : ""
      }${odd}`,
      `reinstall it: trellis plugin uninstall ${id.key} && trellis plugin install ${id.key}`,
    ));
  }
  rows.push(row("ok", "plugins", `${ids.length} installed plugin(s) verified`));
  return rows;
}

/** Load diagnostics as rows: errors fail, warnings warn, notes are left out. */
function diagnosticRows(check: string, diagnostics: Diagnostic[], fix: string): DoctorRow[] {
  return diagnostics.filter((d) => d.level !== "info").map((d) =>
    row(d.level === "error" ? "fail" : "warn", check, d.file ? `${d.file}: ${d.message}` : d.message, fix)
  );
}
