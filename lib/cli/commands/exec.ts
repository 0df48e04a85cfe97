import type { Command } from "commander";
import type { CliContext } from "../context.ts";

export function registerExecCommand(_program: Command, _ctx: CliContext): void {
}
