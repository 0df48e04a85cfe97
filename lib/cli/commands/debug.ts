import type { Command } from "commander";
import type { CliContext } from "../context.ts";

export function registerDebugCommand(_program: Command, _ctx: CliContext): void {
}
