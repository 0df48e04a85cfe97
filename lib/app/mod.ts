/**
 * The composition root: config → plugins → skills/hooks/MCP → loop. The only place that wires
 * subsystems together; the CLI drives what it builds.
 *
 * @example
 * ```ts
 * import { Session } from "./lib/app/mod.ts";
 * // const session = await Session.open({ platform, loaded, events, approver });
 * // const result = await session.runTurn({ prompt: "hi", maxSteps: 20, signal });
 * ```
 * @module
 */
export { Session } from "./session.ts";
export type { SessionOptions, TurnRequest } from "./session.ts";
export { BASE_INSTRUCTIONS } from "./base_instructions.ts";
export { hookConfinement } from "./hooks_wiring.ts";
export { skillsInputFor } from "./capabilities.ts";
export { resolveContextWindow } from "./context_window.ts";
export { planImport, readImportSources } from "./import_plan.ts";
export type { ImportItem, ImportPlan, ImportSource, ImportSources } from "./import_plan.ts";
