import type { Session } from "../../app/mod.ts";
import { closestWord, terminalText } from "../../shared/mod.ts";
import { mcpPromptCommands, type SlashCommand, slashCommands } from "./slash_commands.ts";
import type { Ui } from "./ui.ts";

/** What a slash command's name looks like (`status`, `plugin:command`): no `/` as a path has. */
const COMMAND_NAME = /^[A-Za-z][\w:.-]*$/;

/** Slash commands that may run while a turn runs; the others wait for it. */
const IMMEDIATE = new Set([
  "help",
  "status",
  "model",
  "approvals",
  "sandbox",
  "diff",
  "mcp",
  "skills",
  "hooks",
  "permissions",
  "plugins",
  "context",
  "agents",
  "quit",
  "exit",
]);

/** Where the table finds the session it lists: the open one, and the one being opened. */
export interface CommandTableHost {
  session(): Session | null;
  opened(): Promise<boolean>;
}

/**
 * The slash commands of the open session (built-ins, plugin commands, ready servers' MCP prompts),
 * and which one a typed line names — a typo and a not-yet-listed MCP prompt included.
 */
export class CommandTable {
  #commands: SlashCommand[] = [];

  constructor(private readonly ui: Ui, private readonly host: CommandTableHost) {}

  /** `/name` of each command, for completion. */
  names(): string[] {
    return this.#commands.map((c) => `/${c.name}`);
  }

  /** The built-in and plugin commands of a session just opened. */
  async load(session: Session): Promise<void> {
    this.#commands = await slashCommands(session);
  }

  /** The slash commands again: plugin commands, and the MCP prompts of the servers ready now. */
  async refresh(): Promise<void> {
    const session = this.host.session();
    if (!session) return;
    const commands = [...await slashCommands(session), ...await mcpPromptCommands(session)];
    if (this.host.session() === session) this.#commands = commands;
  }

  /** May run while a turn runs (the others wait for it). */
  static immediate(command: SlashCommand): boolean {
    return IMMEDIATE.has(command.name);
  }

  /** The command `text` names, or null when it is a prompt for the model. */
  resolve(text: string): { command: SlashCommand; args: string } | null {
    const match = /^\/(\S+)(?:\s+([\s\S]*))?$/.exec(text.trim());
    if (!match) return null;
    const [, name, args = ""] = match;
    const command = this.#find(name);
    if (command) return { command, args };
    // A prompt of a server that became ready since the list was read: look again before sending.
    if (name.startsWith("mcp__")) return { command: this.#lateMcpPrompt(name), args };
    // `/stauts` is a typo, not a prompt: sent, it would cost a model call and leave the user
    // waiting for an answer to the wrong question (Codex and Claude Code refuse it too). A word with
    // a second `/` (`/etc/hosts is empty?`) is a path and goes to the model.
    if (COMMAND_NAME.test(name)) return { command: this.#unknownCommand(name), args };
    return null;
  }

  #find(name: string): SlashCommand | undefined {
    return this.#commands.find((c) => c.name === name);
  }

  #unknownCommand(name: string): SlashCommand {
    return {
      name,
      description: "",
      run: async (args, ctx) => {
        // A plugin command typed while the session still opened: the list is read again first.
        await this.host.opened();
        await this.refresh();
        const command = this.#find(name);
        if (command) return await command.run(args, ctx);
        const near = closestWord(name, this.#commands.map((c) => c.name));
        this.ui.print([
          this.ui.colors.yellow(
            `Unknown command /${terminalText(name, { lineBreaks: "show" })}: nothing was sent ` +
              (near
                ? `(did you mean /${terminalText(near, { lineBreaks: "show" })}?)`
                : `(/help lists the commands)`),
          ),
        ]);
      },
    };
  }

  #lateMcpPrompt(name: string): SlashCommand {
    return {
      name,
      description: "",
      run: async (args, ctx) => {
        await this.refresh();
        const command = this.#find(name);
        if (command) return await command.run(args, ctx);
        const known = this.#commands.filter((c) => c.name.startsWith("mcp__")).map((c) => `/${c.name}`);
        this.ui.print([
          this.ui.colors.yellow(
            `No MCP prompt /${terminalText(name, { lineBreaks: "show" })} in this session${
              known.length ? ` (there are ${known.join(", ")})` : " (no ready MCP server offers prompts)"
            }`,
          ),
        ]);
      },
    };
  }
}
