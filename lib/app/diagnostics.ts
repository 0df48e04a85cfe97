import type { Diagnostic, EventSink } from "../shared/mod.ts";

/** Load diagnostics become events: errors and warnings as `warning`, the rest as `notice`. */
export function reportDiagnostics(events: EventSink, diagnostics: Diagnostic[]): void {
  for (const d of diagnostics) {
    if (d.level === "info") events({ type: "notice", message: d.message });
    else events({ type: "warning", message: d.message, ...(d.file ? { subject: d.file } : {}) });
  }
}
