import type { Command } from "commander";
import type { CliContext } from "../context.ts";

/** `trellis plugin …` (filled in by the plugin subsystem work). */
export function registerPluginCommand(_program: Command, _ctx: CliContext): void {
}
