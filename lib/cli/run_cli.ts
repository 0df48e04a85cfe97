import { Command, CommanderError } from "commander";
import { type Platform, quickRuntime } from "../platform/mod.ts";
import { closestWord, isTrellisError, terminalText } from "../shared/mod.ts";
import {
  approvalOption,
  type CliContext,
  collect,
  type CommonOptions,
  createContext,
  sandboxOption,
  sessionOverrides,
} from "./context.ts";
import { COMMAND_NAMES, commandsFor } from "./command_table.ts";
import { versionLine } from "./version.ts";

/** Runs the CLI and returns the exit code; user mistakes print one line, never a stack. */
export async function runCli(argv: string[], platform: Platform): Promise<number> {
  const ctx = createContext(platform);
  try {
    return await runProgram(argv, ctx);
  } finally {
    await ctx.flush();
  }
}

/**
 * Runs a command line in-process with output going to `write` (the interactive mode's /hooks and
 * /plugins print through its screen); returns the exit code.
 */
export async function runCommandLine(
  argv: string[],
  platform: Platform,
  write: (text: string) => void,
): Promise<number> {
  const ctx = createContext(platform);
  ctx.out = (text) => {
    write(text);
    return Promise.resolve();
  };
  ctx.err = write;
  return await runProgram(argv, ctx);
}

async function runProgram(argv: string[], ctx: CliContext): Promise<number> {
  const program = new Command("trellis")
    .description(
      "A single-binary agent runtime with MCP, Skills, Plugins and Hooks.\n\n" +
        "With no command, `trellis [PROMPT]` opens an interactive session in this directory (PROMPT, " +
        "when given, is its first message); `trellis exec PROMPT` runs one turn without a terminal.",
    )
    .usage("[options] [PROMPT]\n       trellis [options] <command> [args]")
    .version(versionLine(quickRuntime()), "-V, --version")
    // -c/-p/-C before the command word, as `codex -c model=x exec …` takes them; after it they are
    // the command's own (positional options keep the two apart).
    .enablePositionalOptions()
    .option("-c, --config <key=value>", "override a config value for any command; repeatable", collect)
    .option("-p, --profile <name>", "use [profiles.<name>] from config")
    .option("-C, --cd <dir>", "run as if started in <dir>")
    // -m/-s/-a before the command word too (`trellis -m gpt-5 exec …`): they become -c overrides of
    // every command, so a command's own -m/-s/-a, which come later, still win.
    .option("-m, --model <model>", "model to use (any command)")
    .addOption(sandboxOption("read-only | workspace-write | danger-full-access (any command)"))
    .addOption(approvalOption("untrusted | on-request | on-failure | never (any command)"))
    .hook("preSubcommand", (command) => {
      ctx.globalOptions = globalOptionsOf(command.opts<GlobalFlags>());
    })
    .exitOverride()
    .configureOutput({
      writeOut: (text) => void ctx.out(text),
      writeErr: (text) => ctx.err(text),
    })
    .showHelpAfterError("(run with --help for usage)");
  const misspelt = misspeltCommand(argv);
  if (misspelt) {
    ctx.err(
      `error: Unknown command "${
        terminalText(misspelt.word)
      }": did you mean \`trellis ${misspelt.meant}\`? ` +
        `To send it as the first prompt of a session, quote the prompt: trellis "${
          terminalText(misspelt.prompt)
        }"\n`,
    );
    return 2;
  }
  const nested = (line: string[], outer: CliContext, write: (text: string) => void) =>
    runCommandLine(line, outer.platform, write);
  for (const register of await commandsFor(argv, nested)) register(program, ctx);
  for (const command of program.commands) propagateExitOverride(command);
  try {
    await program.parseAsync(argv, { from: "user" });
    return ctx.exitCode;
  } catch (error) {
    if (error instanceof CommanderError) {
      return error.code === "commander.helpDisplayed" || error.code === "commander.version" ||
          error.code === "commander.help"
        ? 0
        : 2;
    }
    if (isTrellisError(error)) {
      // Messages quote config keys, server names and paths other people wrote: terminal-safe (#13 item 11).
      ctx.err(`error: ${terminalText(error.message)}\n`);
      return error.exitCode;
    }
    ctx.err(`internal error: ${error instanceof Error ? error.stack ?? error.message : String(error)}\n`);
    return 1;
  }
}

interface GlobalFlags extends CommonOptions {
  model?: string;
  sandbox?: string;
  askForApproval?: string;
}

function globalOptionsOf(flags: GlobalFlags): CommonOptions {
  const { model: _m, sandbox: _s, askForApproval: _a, ...common } = flags;
  const config = sessionOverrides(flags);
  return { ...common, ...(config.length > 0 ? { config } : {}) };
}

function propagateExitOverride(command: Command): void {
  command.exitOverride();
  for (const sub of command.commands) propagateExitOverride(sub);
}

/** Global options that take a value (the word after them is not the command). */
const VALUE_OPTIONS = new Set([
  "-c",
  "--config",
  "-p",
  "--profile",
  "-C",
  "--cd",
  "-m",
  "--model",
  "-s",
  "--sandbox",
  "-a",
  "--ask-for-approval",
  "--max-steps",
]);

/**
 * `trellis exce hi`: a first word one typo away from a command is not sent to a model as a prompt
 * (issue #21 item 11). A prompt given as one quoted argument (`trellis "exce hi"`) is never checked.
 */
function misspeltCommand(argv: string[]): { word: string; meant: string; prompt: string } | undefined {
  let i = 0;
  while (i < argv.length && argv[i].startsWith("-")) {
    if (argv[i] === "--") return undefined;
    i += VALUE_OPTIONS.has(argv[i]) ? 2 : 1;
  }
  const word = argv[i];
  if (word === undefined || /\s/.test(word) || COMMAND_NAMES.has(word)) return undefined;
  const meant = closestWord(word, COMMAND_NAMES);
  return meant ? { word, meant, prompt: argv.slice(i).join(" ") } : undefined;
}
