import type { Command } from "commander";
import type { CliContext } from "../context.ts";

/** `trellis skills …` (filled in by the skills subsystem work). */
export function registerSkillsCommand(_program: Command, _ctx: CliContext): void {
}
