import type { Command } from "commander";

/** A word the shell may offer after a command path: a subcommand or an option, with its help line. */
export interface CompletionWord {
  word: string;
  description: string;
}

/** The words that may follow one command path (`""` is `trellis` itself, `"mcp add"` a leaf). */
export interface CompletionNode {
  path: string;
  words: CompletionWord[];
}

/**
 * Every command path of the registered program and what may follow it, read from commander's own
 * tree — the command table is the one source, so a new command or option completes without an edit
 * here. `help` subcommands are left out; `--help` is offered wherever help lists it.
 */
export function completionTree(program: Command): CompletionNode[] {
  const nodes: CompletionNode[] = [];
  // commander's own view of what help lists: hidden commands (the default interactive one) are out.
  const help = program.createHelp();
  const visit = (command: Command, path: string) => {
    const subcommands = help.visibleCommands(command).filter((c) => c.name() !== "help");
    const words: CompletionWord[] = subcommands.map((c) => ({
      word: c.name(),
      description: line(c.description()),
    }));
    for (const argument of command.registeredArguments) {
      for (const choice of argument.argChoices ?? []) {
        words.push({ word: choice, description: argument.description });
      }
    }
    for (const option of help.visibleOptions(command)) {
      for (const flag of [option.long, option.short]) {
        if (flag) words.push({ word: flag, description: line(option.description) });
      }
    }
    nodes.push({ path, words });
    for (const sub of subcommands) visit(sub, path === "" ? sub.name() : `${path} ${sub.name()}`);
  };
  visit(program, "");
  return nodes;
}

function line(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}
