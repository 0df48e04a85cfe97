import * as path from "node:path";
import type { Command } from "commander";
import {
  type ConfigEdit,
  editConfigFile,
  isTable,
  MCP_SERVER_NAME,
  parseConfigTable,
  removeKey,
  resolvePaths,
  setKey,
  type TomlTable,
  type TomlValue,
} from "../../config/mod.ts";
import { UsageError } from "../../shared/mod.ts";
import { type CliContext, collect } from "../context.ts";

/**
 * `trellis mcp add|remove|enable|disable`: edits of `[mcp_servers.<name>]` in the user config
 * (`--scope user`, Codex's file) or in the project's `.trellis/config.toml` (`--scope project`).
 * Every edit goes through editConfigFile: locked, checked, atomic; what a command looks up (does
 * the server exist?) it looks up in the file as it is under the lock.
 */
export function registerMcpEditCommands(mcp: Command, ctx: CliContext): void {
  mcp.command("add").description(
    "add a stdio (-- CMD ARGS…) or HTTP (--url URL, or --transport http NAME URL) server to config.toml",
  )
    .argument("<name>").argument(
      "[command...]",
      "stdio: after --, the command and its arguments; http/sse: the URL",
    )
    .option("-t, --transport <stdio|http|sse>", "transport (default: http with --url, else stdio)")
    .option(
      "-s, --scope <user|project>",
      "user: $TRELLIS_HOME/config.toml; project: .trellis/config.toml",
      "user",
    )
    .option("-e, --env <KEY=VALUE>", "environment variable for a stdio server; repeatable", collect)
    .option("--url <url>", "streamable HTTP endpoint")
    .option("--bearer-token-env-var <VAR>", "environment variable holding the bearer token")
    .option("-H, --header <KEY=VALUE>", "HTTP header; repeatable", collect)
    .option("--force", "replace a server of the same name")
    .action(async (name: string, positional: string[], options) => {
      checkName(name);
      const entries = addEntries(name, positional, options);
      const file = configFile(ctx, options.scope);
      const { file: written } = await editConfigFile(ctx.platform.fs, file, (doc) => {
        const exists = serverIn(doc, name);
        if (exists && !options.force) {
          throw new UsageError(
            `Cannot add MCP server '${name}': it already exists in ${file} (--force replaces it)`,
            { server: name, file },
          );
        }
        const edits: ConfigEdit[] = exists ? [removeKey(["mcp_servers", name])] : [];
        for (const [key, value] of Object.entries(entries)) {
          edits.push(setKey(["mcp_servers", name, key], value));
        }
        return edits;
      });
      await ctx.out(`Added MCP server '${name}' to ${written}\n`);
    });
  withScope(mcp.command("remove").description("remove a server from config.toml").argument("<name>"))
    .action(async (name: string, options) => {
      checkName(name);
      const file = configFile(ctx, options.scope);
      const { file: written } = await editConfigFile(ctx.platform.fs, file, (doc) => {
        if (!serverIn(doc, name)) throw notFound(name, file);
        return [removeKey(["mcp_servers", name])];
      });
      await ctx.out(`Removed MCP server '${name}' from ${written}\n`);
    });
  for (const enabled of [true, false]) {
    withScope(
      mcp.command(enabled ? "enable" : "disable")
        .description(`${enabled ? "enable" : "disable"} a server in config.toml`).argument("<name>"),
    )
      .action(async (name: string, options) => {
        checkName(name);
        const file = configFile(ctx, options.scope);
        const { file: written } = await editConfigFile(ctx.platform.fs, file, (doc) => {
          if (!serverIn(doc, name)) throw notFound(name, file);
          return [setKey(["mcp_servers", name, "enabled"], enabled)];
        });
        await ctx.out(`${enabled ? "Enabled" : "Disabled"} MCP server '${name}' in ${written}\n`);
      });
  }
}

function withScope(command: Command): Command {
  return command.option("-s, --scope <user|project>", "which config.toml to edit", "user");
}

/** `[mcp_servers.<name>]` in any of its forms: a table, dotted keys, an inline table. */
function serverIn(doc: TomlTable, name: string): boolean {
  return isTable(doc.mcp_servers) && Object.hasOwn(doc.mcp_servers, name);
}

const notFound = (name: string, file: string) =>
  new UsageError(`No MCP server named '${name}' found. (${file} has no [mcp_servers.${name}])`, {
    server: name,
    file,
  });

function checkName(name: string): void {
  if (!MCP_SERVER_NAME.test(name)) {
    throw new UsageError(`Cannot use MCP server name "${name}": use only letters, digits, "_" and "-"`, {
      server: name,
    });
  }
}

/** The config.toml a scope names. Paths only: a broken config elsewhere must not block an edit. */
function configFile(ctx: CliContext, scope: string): string {
  const paths = resolvePaths(ctx.platform.fs, { cwd: ctx.platform.cwd(), env: ctx.platform.env });
  if (scope === "user") return paths.userConfig;
  if (scope === "project") return path.join(paths.projectRoot, ".trellis", "config.toml");
  throw new UsageError(`Cannot use --scope "${scope}": expected user or project`, { field: "scope" });
}

function parsePairs(pairs: string[] | undefined, flag: string): Record<string, string> {
  return Object.fromEntries((pairs ?? []).map((pair) => {
    const eq = pair.indexOf("=");
    if (eq <= 0) throw new UsageError(`Cannot parse ${flag} "${pair}": expected KEY=VALUE`, { field: flag });
    return [pair.slice(0, eq), pair.slice(eq + 1)];
  }));
}

/** The server table `mcp add` writes, checked by the same schema that will load it. */
// deno-lint-ignore no-explicit-any
function addEntries(
  name: string,
  positional: string[],
  options: Record<string, any>,
): Record<string, TomlValue> {
  const transport = options.transport ?? (options.url ? "http" : "stdio");
  if (!["stdio", "http", "sse"].includes(transport)) {
    throw new UsageError(`Cannot use --transport "${transport}": expected stdio, http or sse`, {
      field: "transport",
    });
  }
  if (transport === "sse") {
    throw new UsageError(
      `Cannot add MCP server '${name}' with --transport sse: config.toml's [mcp_servers] (Codex's format) ` +
        `has no SSE transport; declare it in the project's .mcp.json as {"type": "sse", "url": …}, ` +
        `or use --transport http if the server speaks streamable HTTP`,
      { server: name, field: "transport" },
    );
  }
  const entries = transport === "http"
    ? httpEntries(name, positional, options)
    : stdioEntries(positional, options);
  const parsed = parseConfigTable({ mcp_servers: { [name]: entries } });
  if (!parsed.success) {
    const issue = parsed.issues[0];
    throw new UsageError(`Cannot add MCP server '${name}': ${issue.message}`, {
      server: name,
      field: issue.path.slice(2).join("."),
    });
  }
  return entries;
}

// deno-lint-ignore no-explicit-any
function httpEntries(
  name: string,
  positional: string[],
  options: Record<string, any>,
): Record<string, TomlValue> {
  if (options.url && positional.length > 0) {
    throw new UsageError("Cannot add an MCP server with both --url and a command", { server: name });
  }
  if (positional.length > 1) {
    throw new UsageError(`Cannot add MCP server '${name}': an HTTP server takes one URL, not a command`, {
      server: name,
      field: "url",
    });
  }
  const url: string | undefined = options.url ?? positional[0];
  if (!url) {
    throw new UsageError("Cannot add an MCP server without a transport: give --url URL or -- COMMAND ARGS…");
  }
  checkUrl(name, url);
  if (options.env) {
    throw new UsageError("Cannot use --env with --url: env is not supported for streamable_http", {
      field: "env",
    });
  }
  const entries: Record<string, TomlValue> = { url };
  if (options.bearerTokenEnvVar) entries.bearer_token_env_var = options.bearerTokenEnvVar;
  const headers = parsePairs(options.header, "--header");
  if (Object.keys(headers).length) entries.http_headers = headers;
  return entries;
}

// deno-lint-ignore no-explicit-any
function stdioEntries(command: string[], options: Record<string, any>): Record<string, TomlValue> {
  if (options.url) throw new UsageError("Cannot add a stdio MCP server with --url", { field: "url" });
  if (command.length === 0) {
    throw new UsageError("Cannot add an MCP server without a transport: give --url URL or -- COMMAND ARGS…");
  }
  if (options.bearerTokenEnvVar || options.header) {
    throw new UsageError("Cannot use --bearer-token-env-var or --header with a stdio command", {
      field: "url",
    });
  }
  const entries: Record<string, TomlValue> = { command: command[0] };
  if (command.length > 1) entries.args = command.slice(1);
  const env = parsePairs(options.env, "--env");
  if (Object.keys(env).length) entries.env = env;
  return entries;
}

function checkUrl(name: string, url: string): void {
  let parsed: URL | undefined;
  try {
    parsed = new URL(url);
  } catch {
    // reported below
  }
  if (parsed?.protocol !== "http:" && parsed?.protocol !== "https:") {
    throw new UsageError(`Cannot add MCP server '${name}': url "${url}" is not an http:// or https:// URL`, {
      server: name,
      field: "url",
    });
  }
}
