import type { Command } from "commander";
import type { CliContext } from "./context.ts";

type Register = (program: Command, ctx: CliContext) => void;

/** Runs a command line in-process, output to `write` (run_cli.ts's runCommandLine, passed in). */
export type NestedRun = (argv: string[], ctx: CliContext, write: (text: string) => void) => Promise<number>;

/**
 * Every top-level command and how to load it. A command's module (and the subsystems it pulls in)
 * is evaluated only when that command runs, so `trellis --version` or `trellis skills list` never
 * pays for the MCP SDK or the plugin store. No command module imports run_cli.ts: the interactive
 * session gets its way to run `/hooks`-style command lines as `nested`, so no import cycle hides here.
 */
export const COMMANDS: Record<string, (nested: NestedRun) => Promise<Register>> = {
  exec: async () => (await import("./commands/exec.ts")).registerExecCommand,
  debug: async () => (await import("./commands/debug.ts")).registerDebugCommand,
  config: async () => (await import("./commands/config.ts")).registerConfigCommand,
  project: async () => (await import("./commands/project.ts")).registerProjectCommand,
  mcp: async () => (await import("./commands/mcp.ts")).registerMcpCommand,
  "mcp-server": async () => (await import("./commands/mcp_server.ts")).registerMcpServerCommand,
  acp: async () => (await import("./commands/acp.ts")).registerAcpCommand,
  skills: async () => (await import("./commands/skills.ts")).registerSkillsCommand,
  agents: async () => (await import("./commands/agents.ts")).registerAgentsCommand,
  hooks: async () => (await import("./commands/hooks.ts")).registerHooksCommand,
  permissions: async () => (await import("./commands/permissions.ts")).registerPermissionsCommand,
  plugin: async () => (await import("./commands/plugin.ts")).registerPluginCommand,
  import: async () => (await import("./commands/import.ts")).registerImportCommand,
  completion: async () => (await import("./commands/completion.ts")).registerCompletionCommand,
  doctor: async () => (await import("./commands/doctor.ts")).registerDoctorCommand,
  sessions: async () => (await import("./commands/sessions.ts")).registerSessionsCommand,
  rewind: async () => (await import("./commands/rewind.ts")).registerRewindCommand,
  // The interactive session: `trellis [PROMPT]` (the default command) and `trellis resume`.
  resume: async (nested) => {
    const { registerInteractiveCommand } = await import("./commands/interactive.ts");
    return (program, ctx) =>
      registerInteractiveCommand(program, ctx, (argv, write) => nested(argv, ctx, write));
  },
};

/** Every top-level command word a user may type (the interactive session's `resume` included). */
export const COMMAND_NAMES: ReadonlySet<string> = new Set([...Object.keys(COMMANDS), "help"]);

/** Words that ask for help or the version: every command is registered for them. */
const META = new Set(["--help", "-h", "help"]);

/**
 * The commands argv needs: its first word's; all of them for help or when a command's name appears
 * later (options before it); else only the interactive session, the default command — a prompt
 * never pays for loading every command.
 */
export async function commandsFor(argv: string[], nested: NestedRun): Promise<Register[]> {
  const first = argv[0];
  if (first === "--version" || first === "-V") return [];
  // `completion` describes every command, so it gets them all.
  const names = first === "completion"
    ? Object.keys(COMMANDS)
    : first && Object.hasOwn(COMMANDS, first)
    ? [first]
    : argv.some((word) => META.has(word) || Object.hasOwn(COMMANDS, word))
    ? Object.keys(COMMANDS) // help, or options before a command: commander sorts it out
    : ["resume"];
  return await Promise.all(names.map((name) => COMMANDS[name](nested)));
}
