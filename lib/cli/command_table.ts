import type { Command } from "commander";
import type { CliContext } from "./context.ts";

type Register = (program: Command, ctx: CliContext) => void;

/**
 * Every top-level command and how to load it. A command's module (and the subsystems it pulls in)
 * is evaluated only when that command runs, so `trellis --version` or `trellis skills list` never
 * pays for the MCP SDK or the plugin store. These are the only dynamic imports of project modules,
 * and they cannot hide a cycle: nothing imports this table but run_cli.ts.
 */
export const COMMANDS: Record<string, () => Promise<Register>> = {
  exec: async () => (await import("./commands/exec.ts")).registerExecCommand,
  debug: async () => (await import("./commands/debug.ts")).registerDebugCommand,
  config: async () => (await import("./commands/config.ts")).registerConfigCommand,
  project: async () => (await import("./commands/project.ts")).registerProjectCommand,
  mcp: async () => (await import("./commands/mcp.ts")).registerMcpCommand,
  "mcp-server": async () => (await import("./commands/mcp_server.ts")).registerMcpServerCommand,
  skills: async () => (await import("./commands/skills.ts")).registerSkillsCommand,
  hooks: async () => {
    const [{ registerHooksCommand }, { pluginContributions }] = await Promise.all([
      import("./commands/hooks.ts"),
      import("./plugin_contributions.ts"),
    ]);
    return (program, ctx) =>
      registerHooksCommand(program, ctx, {
        pluginSources: async (loaded) => (await pluginContributions(ctx.platform, loaded)).hookSources,
      });
  },
  plugin: async () => (await import("./commands/plugin.ts")).registerPluginCommand,
  import: async () => (await import("./commands/import.ts")).registerImportCommand,
};

/** The commands argv needs: its first word's, or all of them (help, unknown words). */
export async function commandsFor(argv: string[]): Promise<Register[]> {
  const first = argv[0];
  if (first === "--version" || first === "-V") return [];
  const names = first && first in COMMANDS ? [first] : Object.keys(COMMANDS);
  return await Promise.all(names.map((name) => COMMANDS[name]()));
}
