import process from "node:process";

/** The real uid of this process; undefined where the runtime has none (Windows). */
export function processUid(): number | undefined {
  return typeof process.getuid === "function" ? process.getuid() : undefined;
}
