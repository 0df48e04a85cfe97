import type { ProjectInstructions } from "../config/mod.ts";
import type { ModelRequest, ToolSource } from "../shared/mod.ts";

/** Where an input item of the next request sits: recorded history, this turn's context, the prompt. */
export type InputPlace = "history" | "preamble" | "prompt" | "injected";

/**
 * The next request as `Session.previewRequestParts` assembles it, with the provenance the context
 * ledger (#17 item 3) attributes tokens by. `toolSources` and `inputPlaces` run parallel to
 * `request.tools` and `request.input`.
 */
export interface RequestParts {
  request: ModelRequest;
  /** The built-in (or `mcp-server`-given) base instructions; config `instructions` follow them. */
  baseInstructions: string;
  toolSources: ToolSource[];
  inputPlaces: InputPlace[];
  /** Every enabled MCP server of the catalog, with tools or not (a failed one declares none). */
  mcpServers: string[];
  /** The "MCP Server Instructions" section the instructions end with ("" when none). */
  mcpInstructions: string;
  /** The servers whose instructions that section carries. */
  mcpInstructionServers: string[];
  /** The AGENTS.md / CLAUDE.md files in the preamble's instructions message. */
  projectInstructions: ProjectInstructions;
}
