import type { Command } from "commander";
import {
  callMcpTool,
  listMcpPrompts,
  listMcpResources,
  listMcpServers,
  loginMcpServer,
  logoutMcpServer,
  mcpToolsReport,
  probeMcpUrl,
  readMcpResource,
  visibleName,
  type Workspace,
} from "../../app/mod.ts";
import { openInBrowser } from "../../platform/mod.ts";
import { TrellisError, UsageError } from "../../shared/mod.ts";
import { type CliContext, printDiagnostics, withCommonOptions } from "../context.ts";
import { registerMcpEditCommands } from "./mcp_edit.ts";
import { registerMcpPinCommands } from "./mcp_pins.ts";
import { printEvent, withRuntime } from "./mcp_runtime.ts";
import { registerMcpSandboxCommand } from "./mcp_sandbox.ts";

/** `trellis mcp …`: manage `[mcp_servers.*]` in $TRELLIS_HOME/config.toml and debug live servers. */
export function registerMcpCommand(program: Command, ctx: CliContext): void {
  const mcp = program.command("mcp").description("manage and debug MCP servers");
  registerConfigCommands(mcp, ctx);
  registerMcpEditCommands(mcp, ctx);
  registerDebugCommands(mcp, ctx);
  registerMcpPinCommands(mcp, ctx);
  registerAuthCommands(mcp, ctx);
  registerMcpSandboxCommand(mcp, ctx);
}

function registerAuthCommands(mcp: Command, ctx: CliContext): void {
  withCommonOptions(mcp.command("login").description("log in to an OAuth MCP server").argument("<name>"))
    .option("--scopes <a,b>", "comma-separated scopes (beat the configured ones)")
    .action(async (name: string, options) => {
      const ws = await openWorkspace(ctx, options);
      await loginMcpServer(ws, name, {
        scopes: options.scopes ? String(options.scopes).split(",").filter(Boolean) : undefined,
        show: (url) => {
          ctx.err(`Open this URL to authorize Trellis:\n${url.href}\n`);
          // Not awaited: the redirect may arrive while the opener is still running.
          void openInBrowser(ctx.platform, url);
        },
      });
      await ctx.out(`Logged in to MCP server '${name}'.\n`);
    });
  withCommonOptions(
    mcp.command("logout").description("forget an MCP server's OAuth tokens").argument("<name>"),
  )
    .action(async (name: string, options) => {
      await logoutMcpServer(await openWorkspace(ctx, options), name);
      await ctx.out(`Logged out of MCP server '${name}'.\n`);
    });
  mcp.command("probe").description("connect to a streamable HTTP MCP server and show what it offers")
    .argument("<url>")
    .option("--call-all", "call every tool with arguments built from its input schema")
    .option("--accept-defaults", "accept form elicitations with the schema defaults")
    .option("--oauth-headless", "complete an OAuth authorization redirect without a browser")
    .option("--client-metadata-url <url>", "client ID metadata document URL for OAuth")
    .option("--scopes <a,b>", "comma-separated OAuth scopes")
    .action(async (url: string, options) => {
      const out: string[] = [];
      const { failures } = await probeMcpUrl(url, {
        platform: ctx.platform,
        cwd: await ctx.cwd(),
        out: (text) => void out.push(text),
        callAll: options.callAll,
        acceptDefaults: options.acceptDefaults,
        oauthHeadless: options.oauthHeadless,
        context: ctx.platform.env("MCP_CONFORMANCE_CONTEXT"),
        clientMetadataUrl: options.clientMetadataUrl,
        scopes: options.scopes ? String(options.scopes).split(",").filter(Boolean) : undefined,
      }).finally(async () => await ctx.out(out.join("")));
      if (failures > 0) ctx.exitCode = 1;
    });
}

/** The workspace with its MCP catalog resolved and the catalog's diagnostics printed. */
async function openWorkspace(ctx: CliContext, options: Record<string, unknown>): Promise<Workspace> {
  const ws = await ctx.workspace(options);
  const { diagnostics } = await ws.mcpCatalog();
  printDiagnostics(ctx, diagnostics); // a note (a skipped untrusted entry) is not a warning
  return ws;
}

const json = (value: unknown) => JSON.stringify(value, null, 2) + "\n";

function registerConfigCommands(mcp: Command, ctx: CliContext): void {
  withCommonOptions(mcp.command("list").description("list configured MCP servers")).option(
    "--json",
    "print JSON",
  )
    .action(async (options) => {
      const { servers: all, failed, conflicts } = await listMcpServers(await openWorkspace(ctx, options));
      if (options.json) {
        return void await ctx.out(json([...all, ...failed].sort((a, b) => a.name < b.name ? -1 : 1)));
      }
      if (all.length === 0 && failed.length === 0) {
        return void await ctx.out("No MCP servers configured. Add one with `trellis mcp add`.\n");
      }
      const rows = all.map((s) => [
        s.name,
        s.transport.type === "stdio" ? [s.transport.command, ...s.transport.args].join(" ") : s.transport.url,
        s.enabled ? "enabled" : "disabled",
        s.auth_status,
        s.origin,
        s.source,
      ]);
      rows.push(...failed.map((f) => [f.name, "-", "failed", "-", f.origin, f.source]));
      rows.sort((a, b) => a[0] < b[0] ? -1 : 1);
      await ctx.out(table([["Name", "Command / URL", "Status", "Auth", "Origin", "Source"], ...rows]));
      for (const f of failed) await ctx.out(`${f.name} failed: ${f.error}\n`);
      for (const s of all) {
        const last = s.last_start_failure;
        if (last) await ctx.out(`${s.name}: last start failed (${last.at}): ${last.error}\n`);
      }
      for (const s of all.filter((s) => s.switched_by && !s.enabled)) {
        await ctx.out(
          `${s.name} is off for Trellis only ([mcp_servers.${s.name}] enabled = false in ${s.switched_by})\n`,
        );
      }
      for (const c of conflicts) {
        ctx.err(`note: "${c.server}" is declared by ${c.contenders.join(", ")}; ${c.outcome} wins\n`);
      }
    });
  withCommonOptions(mcp.command("get").description("show one MCP server").argument("<name>"))
    .option("--json", "print JSON")
    .action(async (name: string, options) => {
      const { servers, failed } = await listMcpServers(await openWorkspace(ctx, options));
      const found = [...servers, ...failed].find((s) => s.name === name);
      if (!found) throw new UsageError(`No MCP server named '${name}' found.`, { server: name });
      if (options.json) return void await ctx.out(json(found));
      const lines = Object.entries(found).map(([k, v]) =>
        `${k}: ${typeof v === "object" ? JSON.stringify(v) : v}`
      );
      await ctx.out(lines.join("\n") + "\n");
    });
}

function table(rows: string[][]): string {
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
  return rows.map((r) => r.map((c, i) => i === r.length - 1 ? c : c.padEnd(widths[i])).join("  ")).join(
    "\n",
  ) + "\n";
}

/** A server whose listing broke (a repeated cursor, an error) is a protocol error, not "none". */
function throwListingFailures(failures: readonly { server: string; error: string }[]): void {
  if (failures.length === 0) return;
  throw new TrellisError(
    "mcp_protocol",
    failures.map((f) => `MCP server '${f.server}': ${f.error}`).join("; "),
    { server: failures.map((f) => f.server).join(",") },
  );
}

function registerDebugCommands(mcp: Command, ctx: CliContext): void {
  withCommonOptions(
    mcp.command("tools").description("start servers and show their tools as the model sees them")
      .argument("[server]"),
  )
    .option("--json", "print JSON")
    .action((server: string | undefined, options) =>
      withRuntime(ctx, options, server, async (rt) => {
        const { servers, tools } = mcpToolsReport(rt);
        if (options.json) return void await ctx.out(json({ servers, tools }));
        const lines = tools.map((t) =>
          `${t.modelName}${t.visible ? "" : " [hidden from model]"}${
            t.allowed ? "" : " [disabled by filter]"
          }${
            t.withheld
              ? ` [withheld: ${t.pin} since pinned]`
              : t.pin === "new" || t.pin === "changed"
              ? ` [${t.pin} since pinned]`
              : ""
          }` +
          `${t.approvalMode !== "auto" ? ` [approval: ${t.approvalMode}]` : ""}${
            t.taskSupport && t.taskSupport !== "forbidden" ? ` [task: ${t.taskSupport}]` : ""
          }\n  ${visibleName(t.description.split("\n")[0])}\n` +
          `  input: ${JSON.stringify(t.inputSchema)}`
        );
        await ctx.out(lines.join("\n") + (lines.length ? "\n" : "No tools.\n"));
      })
    );
  withCommonOptions(
    mcp.command("call").description("call one tool (its own name or mcp__server__tool)")
      .argument("<server>").argument("<tool>"),
  )
    .option("--args <json>", "tool arguments as a JSON object", "{}")
    .action((server: string, tool: string, options) => {
      let args: unknown;
      try {
        args = JSON.parse(options.args);
      } catch (error) {
        throw new UsageError(`Cannot parse --args "${options.args}": ${(error as Error).message}`, {
          field: "args",
        });
      }
      if (typeof args !== "object" || args === null || Array.isArray(args)) {
        throw new UsageError(`Cannot use --args "${options.args}": it must be a JSON object`, {
          field: "args",
        });
      }
      return withRuntime(ctx, options, server, async (mcp) => {
        const result = await callMcpTool(mcp, {
          server,
          tool,
          args: args as Record<string, unknown>,
          events: (e) => printEvent(ctx, e),
        });
        await ctx.out(result.output + "\n");
        for (const part of result.content ?? []) {
          if (part.type !== "text") {
            ctx.err(`(${part.type} ${part.mimeType}, ${part.data.length} base64 chars)\n`);
          }
        }
        if (result.status !== "success") ctx.exitCode = 1;
      }, { recordPins: true });
    });
  for (const kind of ["resources", "templates"] as const) {
    withCommonOptions(
      mcp.command(kind).description(`list ${kind === "resources" ? "resources" : "resource templates"}`),
    )
      .argument("[server]").option("--json", "print JSON")
      .action((server: string | undefined, options) =>
        withRuntime(ctx, options, server, async (mcp) => {
          const { items, failures } = await listMcpResources(mcp, kind);
          if (options.json) await ctx.out(json(items));
          else {
            const lines = items.map((r) =>
              visibleName(
                `${r.server}  ${r.uri ?? r.uriTemplate}  ${r.name}${r.mimeType ? ` (${r.mimeType})` : ""}`,
              )
            );
            await ctx.out(lines.join("\n") + (lines.length ? "\n" : failures.length ? "" : `No ${kind}.\n`));
          }
          throwListingFailures(failures);
        })
      );
  }
  withCommonOptions(
    mcp.command("prompts").description("list the servers' prompts ($mcp__server__prompt in a prompt)")
      .argument("[server]"),
  )
    .option("--json", "print JSON")
    .action((server: string | undefined, options) =>
      withRuntime(ctx, options, server, async (mcp) => {
        const { prompts, failures } = await listMcpPrompts(mcp);
        if (options.json) await ctx.out(json(prompts));
        else {
          const lines = prompts.map((p) =>
            visibleName(
              `$${p.modelName} ${
                p.arguments.map((a) => a.required ? `<${a.name}>` : `[${a.name}]`).join(" ")
              }`
                .trimEnd(),
            ) + (p.description ? `\n  ${visibleName(p.description.split("\n")[0])}` : "")
          );
          await ctx.out(lines.join("\n") + (lines.length ? "\n" : failures.length ? "" : "No prompts.\n"));
        }
        throwListingFailures(failures);
      })
    );
  withCommonOptions(
    mcp.command("read").description("read one resource").argument("<server>").argument("<uri>"),
  )
    .action((server: string, uri: string, options) =>
      withRuntime(ctx, options, server, async (mcp) => {
        await ctx.out(json(await readMcpResource(mcp, server, uri)));
      })
    );
}
