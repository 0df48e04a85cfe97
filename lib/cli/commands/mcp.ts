import type { Command } from "commander";
import type { CliContext } from "../context.ts";

/** `trellis mcp …` (filled in by the mcp subsystem work). */
export function registerMcpCommand(_program: Command, _ctx: CliContext): void {
}
