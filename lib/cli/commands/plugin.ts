import type { Command } from "commander";
import { type LoadedPlugin, PluginAdmin, type PluginComponent } from "../../app/mod.ts";
import { UsageError } from "../../shared/mod.ts";
import { type CliContext, type CommonOptions, printDiagnostics, withCommonOptions } from "../context.ts";

/** The plugin store and settings of the workspace the common flags select. */
async function adminFor(ctx: CliContext, options: CommonOptions): Promise<PluginAdmin> {
  return new PluginAdmin(await ctx.workspace(options));
}

/** `trellis plugin …`: marketplaces, install/uninstall/update/verify, enable/disable, list/show. */
export function registerPluginCommand(program: Command, ctx: CliContext): void {
  const plugin = program.command("plugin").description("manage plugins and plugin marketplaces");
  registerMarketplaceCommands(plugin, ctx);

  withCommonOptions(plugin.command("install").argument("<id>", "<plugin>@<marketplace>"))
    .description("install a plugin from a configured marketplace and enable it")
    .action(async (id: string, options) => {
      const result = await (await adminFor(ctx, options)).install(id);
      printDiagnostics(ctx, result.diagnostics);
      const counts = componentCounts(result.components);
      await ctx.out(
        `Installed ${result.id} ${result.version} (${result.digest})${counts ? `: ${counts}` : ""}\n`,
      );
    });

  withCommonOptions(plugin.command("uninstall").argument("<id>", "<plugin>@<marketplace>"))
    .description("remove a plugin (its data dir is kept unless --purge)")
    .option("--purge", "also delete the plugin's data dir")
    .action(async (id: string, options) => {
      const done = await (await adminFor(ctx, options)).uninstall(id, { purge: options.purge });
      printDiagnostics(ctx, done.diagnostics);
      if (!done.removed) {
        throw new UsageError(`Cannot uninstall "${id}": it is not installed`, { plugin: id });
      }
      await ctx.out(`Uninstalled ${done.id}${done.purged ? " (data deleted)" : ""}\n`);
    });

  withCommonOptions(
    plugin.command("update").argument("[id]", "<plugin>@<marketplace> (default: all installed)"),
  )
    .description("re-fetch plugins and install any whose content digest changed")
    .action(async (id: string | undefined, options) => {
      const admin = await adminFor(ctx, options);
      const ids = id ? [id] : await admin.installedIds();
      for (const key of ids) {
        const result = await admin.update(key);
        printDiagnostics(ctx, result.diagnostics);
        await ctx.out(
          result.changed
            ? `Updated ${key}: ${result.previous?.version ?? "none"} → ${result.version} (${result.digest})\n`
            : `${key} is up to date (${result.version}, ${result.digest})\n`,
        );
      }
    });

  withCommonOptions(
    plugin.command("verify").argument("[id]", "<plugin>@<marketplace> (default: all installed)"),
  )
    .description("re-hash installed plugins and report any change since install")
    .action(async (id: string | undefined, options) => {
      const admin = await adminFor(ctx, options);
      for (const key of await admin.installedIds(id)) {
        const result = await admin.verify(key);
        const extra = result.status === "modified"
          ? ` (expected ${result.expected}, found ${result.actual})`
          : "";
        const odd = result.unexpected.length ? `; unexpected entries: ${result.unexpected.join(", ")}` : "";
        await ctx.out(`${key}: ${result.status}${extra}${odd}\n`);
        if (result.status !== "ok") ctx.exitCode = 1;
      }
    });

  for (const enabled of [true, false]) {
    withCommonOptions(
      plugin.command(enabled ? "enable" : "disable").argument("<id>", "<plugin>@<marketplace>"),
    )
      .description(`${enabled ? "enable" : "disable"} an installed plugin (user config)`)
      .action(async (id: string, options) => {
        const key = await (await adminFor(ctx, options)).setEnabled(id, enabled);
        await ctx.out(`${enabled ? "Enabled" : "Disabled"} ${key}\n`);
      });
  }

  withCommonOptions(plugin.command("list")).description("list configured and installed plugins")
    .option("--json", "print JSON")
    .action(async (options) => {
      const rows = await pluginRows(ctx, await adminFor(ctx, options));
      if (options.json) return await ctx.out(JSON.stringify(rows, null, 2) + "\n");
      if (!rows.length) return await ctx.out("No plugins installed.\n");
      for (const r of rows) {
        const state = r.active
          ? "active"
          : r.error
          ? `error: ${r.error}`
          : r.enabled
          ? "inactive"
          : "disabled";
        const caps = r.summary ? describeCaps(r.summary) : "";
        const from = r.origin ? `  (from ${r.origin}: ${r.root ?? "missing"})` : "";
        await ctx.out(`${r.id}  ${r.version ?? "-"}  ${state}${caps ? `  ${caps}` : ""}${from}\n`);
      }
    });

  withCommonOptions(plugin.command("show").argument("<id>", "<plugin>@<marketplace>"))
    .description("show one plugin's state, paths and every component it brought, with what became of it")
    .option("--json", "print JSON")
    .action(async (id: string, options) => {
      const admin = await adminFor(ctx, options);
      const key = admin.canonicalId(id);
      const row = (await pluginRows(ctx, admin)).find((r) => r.id === key);
      if (!row) {
        throw new UsageError(`Cannot show "${id}": it is neither installed nor configured`, { plugin: id });
      }
      if (options.json) return await ctx.out(JSON.stringify(row, null, 2) + "\n");
      await ctx.out(renderPluginShow(row));
    });
}

/** `3 commands, 1 hook source, 12 unsupported` — what an install brought, in one clause. */
function componentCounts(components: PluginComponent[]): string {
  const active = new Map<string, number>();
  let unsupported = 0;
  for (const c of components) {
    if (c.status === "active") active.set(c.kind, (active.get(c.kind) ?? 0) + 1);
    else if (c.status === "unsupported") unsupported++;
  }
  const parts = [...active].map(([kind, n]) => `${n} ${kind}`);
  if (unsupported) parts.push(`${unsupported} unsupported`);
  return parts.join(", ");
}

function renderPluginShow(row: LoadedPlugin): string {
  const state = row.active
    ? "active"
    : row.error
    ? `error: ${row.error}`
    : row.enabled
    ? "inactive"
    : "disabled";
  const lines = [`${row.id}  ${row.version ?? "-"}  ${state}`];
  if (row.summary?.description) lines.push(`  ${row.summary.description}`);
  if (row.origin) {
    lines.push(`installed by: ${row.origin === "claude" ? "Claude Code (read in place)" : row.origin}`);
  }
  if (row.root) lines.push(`root: ${row.root}`);
  if (row.dataDir) lines.push(`data: ${row.dataDir}`);
  if (row.digest) lines.push(`digest: ${row.digest}`);
  const components = row.components ?? [];
  if (row.active && components.length === 0) lines.push("components: none (it contributes nothing)");
  else if (components.length) lines.push("components:");
  const kindWidth = Math.max(0, ...components.map((c) => c.kind.length));
  const nameWidth = Math.max(0, ...components.map((c) => c.name.length));
  for (const c of components) {
    const detail = c.detail ? `  ${c.detail}` : "";
    lines.push(`  ${c.kind.padEnd(kindWidth)}  ${c.name.padEnd(nameWidth)}  ${c.status}${detail}`);
  }
  return lines.join("\n") + "\n";
}

function describeCaps(
  s: { hasSkills: boolean; mcpServerNames: string[]; appConnectorIds: string[] },
): string {
  const parts = [
    s.hasSkills ? "skills" : "",
    s.mcpServerNames.length ? `mcp: ${s.mcpServerNames.join(",")}` : "",
  ];
  if (s.appConnectorIds.length) parts.push(`apps: ${s.appConnectorIds.join(",")}`);
  return parts.filter(Boolean).join("; ");
}

/** Loaded (configured) plugins plus installed-but-unconfigured ones, which are not active. */
async function pluginRows(ctx: CliContext, admin: PluginAdmin): Promise<LoadedPlugin[]> {
  const { rows, diagnostics } = await admin.rows();
  printDiagnostics(ctx, diagnostics.filter((d) => d.level !== "info"));
  return rows;
}

function registerMarketplaceCommands(plugin: Command, ctx: CliContext): void {
  const market = plugin.command("marketplace").description("manage plugin marketplaces");
  withCommonOptions(market.command("add").argument("<source>", "marketplace root dir or git URL"))
    .description("add a local or git marketplace")
    .option("--ref <ref>", "git branch, tag or commit")
    .option("--replace", "switch a name already registered from another source to this one")
    .action(async (source: string, options) => {
      const admin = await adminFor(ctx, options);
      const added = await admin.addMarketplace(source, {
        ref: options.ref,
        replace: options.replace === true,
      });
      const replaced = added.replaced;
      if (replaced) {
        const from = replaced.previous;
        const plugins = replaced.installed.length
          ? `installed plugins that now update from the new source: ${replaced.installed.join(", ")}`
          : "no installed plugins come from it";
        await ctx.out(
          `Replaced marketplace ${added.name}: ${from.kind} ${from.source}${from.ref ? `@${from.ref}` : ""}` +
            ` → ${added.kind} ${added.source}${added.ref ? `@${added.ref}` : ""}; ${plugins}\n`,
        );
      }
      await ctx.out(
        `Added marketplace ${added.name} (${added.kind}: ${added.source}) with ${added.plugins} plugin(s)\n`,
      );
    });
  withCommonOptions(market.command("list")).description("list configured marketplaces and their plugins")
    .option("--json", "print JSON")
    .action(async (options) => {
      const { marketplaces, diagnostics } = await (await adminFor(ctx, options)).marketplaces();
      printDiagnostics(ctx, diagnostics);
      if (options.json) return await ctx.out(JSON.stringify(marketplaces, null, 2) + "\n");
      if (!marketplaces.length) return await ctx.out("No marketplaces configured.\n");
      for (const m of marketplaces) {
        await ctx.out(`${m.name}  ${m.kind}  ${m.source}${m.ref ? `@${m.ref}` : ""}\n`);
        for (const e of m.entries) {
          await ctx.out(`  ${e.name}@${m.name}  ${e.installation}  ${e.source.kind}\n`);
        }
      }
    });
  withCommonOptions(market.command("update").argument("[name]", "marketplace name (default: all)"))
    .description("refresh git marketplaces")
    .action(async (name: string | undefined, options) => {
      for (const m of await (await adminFor(ctx, options)).updateMarketplaces(name)) {
        await ctx.out(`Updated marketplace ${m.name}: ${m.plugins} plugin(s)\n`);
      }
    });
  withCommonOptions(market.command("remove").argument("<name>", "marketplace name"))
    .description("remove a marketplace (installed plugins stay installed)")
    .action(async (name: string, options) => {
      await (await adminFor(ctx, options)).removeMarketplace(name);
      await ctx.out(`Removed marketplace ${name}\n`);
    });
}
