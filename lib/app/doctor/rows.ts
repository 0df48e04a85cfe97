/** One line of `trellis doctor`'s table (#17 item 5). */
export interface DoctorRow {
  status: "ok" | "warn" | "fail" | "skip";
  /** What was checked: "config user", "mcp github", "sandbox". */
  check: string;
  /** What was found: the file, the error, the counts. */
  detail: string;
  /** For a row that is not ok: what to run or edit. */
  fix?: string;
}

export interface DoctorReport {
  rows: DoctorRow[];
  /** True when any row failed: the command exits 1. */
  failed: boolean;
}

export function row(status: DoctorRow["status"], check: string, detail: string, fix?: string): DoctorRow {
  return { status, check, detail, ...(fix ? { fix } : {}) };
}
