import { Argument, type Command } from "commander";
import {
  COMPLETION_SHELLS,
  completionScript,
  type CompletionShell,
} from "../completion/completion_scripts.ts";
import { completionTree } from "../completion/completion_tree.ts";
import type { CliContext } from "../context.ts";

/**
 * `trellis completion bash|zsh|fish`: prints a completion script generated from the registered
 * commands (the command table registers every command for this one, so the whole tree is here).
 */
export function registerCompletionCommand(program: Command, ctx: CliContext): void {
  program.command("completion")
    .description("print a shell completion script (bash, zsh or fish)")
    .addArgument(new Argument("<shell>", "the shell to complete for").choices(COMPLETION_SHELLS))
    .action(async (shell: CompletionShell) => {
      await ctx.out(completionScript(shell, completionTree(program)));
    });
}
