import { askingAgentNote, type ElicitationResponder, type ServedToolCall } from "../../mcp/mod.ts";

/**
 * Elicitations from the thread's own MCP servers, forwarded to the client whose call runs the
 * turn: form mode with the server's schema, the message saying which server asks; URL mode only
 * to a client that declared it. A client that cannot elicit in that mode gets nothing: the server
 * is declined at once, as without a terminal (MCP-15). A failed request counts as cancelled.
 */
export function clientElicitationResponder(current: () => ServedToolCall | null): ElicitationResponder {
  return {
    async respond(request, signal) {
      const call = current();
      if (!call) return { action: "decline" };
      const modes = call.elicitationModes();
      const message = `MCP server "${request.server}" asks${askingAgentNote(request)}: ${request.message}`;
      try {
        if (request.mode === "form") {
          if (!modes.form) return { action: "decline" };
          return await call.elicit({
            mode: "form",
            message,
            requestedSchema: request.schema ?? { type: "object", properties: {} },
          }, AbortSignal.any([signal, call.signal]));
        }
        if (!modes.url || request.url === undefined) return { action: "decline" };
        return await call.elicit(
          { mode: "url", message, url: request.url, elicitationId: request.id },
          AbortSignal.any([signal, call.signal]),
        );
      } catch {
        return { action: "cancel" };
      }
    },
  };
}
