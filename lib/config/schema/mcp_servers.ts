import { z } from "zod";

// Owned by the MCP subsystem: `[mcp_servers.<name>]` with Codex's fields and transport validation.
export const mcpServersSchema = z.record(z.string(), z.record(z.string(), z.unknown()));
export const mcpShape = {
  mcp_servers: mcpServersSchema.optional(),
  tool_search: z.boolean().optional(),
};
