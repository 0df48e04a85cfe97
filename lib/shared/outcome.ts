/**
 * Expected failures are data: a load returns what it could build plus diagnostics,
 * so one bad file never hides the others.
 */

export type DiagnosticLevel = "error" | "warning" | "info";

export interface Diagnostic {
  level: DiagnosticLevel;
  message: string;
  /** The file, server, plugin or field the diagnostic is about, when known. */
  file?: string;
  field?: string;
  subject?: string;
}

export interface Outcome<T> {
  items: T[];
  diagnostics: Diagnostic[];
}

export function warning(message: string, where: Omit<Diagnostic, "level" | "message"> = {}): Diagnostic {
  return { level: "warning", message, ...where };
}

export function errorDiagnostic(
  message: string,
  where: Omit<Diagnostic, "level" | "message"> = {},
): Diagnostic {
  return { level: "error", message, ...where };
}
