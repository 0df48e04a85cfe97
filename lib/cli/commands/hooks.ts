import type { Command } from "commander";
import type { CliContext } from "../context.ts";

/** `trellis hooks …` (filled in by the hooks subsystem work). */
export function registerHooksCommand(_program: Command, _ctx: CliContext): void {
}
