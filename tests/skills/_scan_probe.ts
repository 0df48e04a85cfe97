/**
 * Loads one user skills root and prints `{skills, warnings}` as JSON: run by discovery_test.ts in a
 * child process without CAP_DAC_OVERRIDE/CAP_DAC_READ_SEARCH, so file modes bind even under root.
 */
import { loadSkillsSnapshot } from "../../lib/skills/mod.ts";
import { platform } from "../../lib/platform/mod.ts";

const root = platform.args()[0];
const snap = await loadSkillsSnapshot(platform.fs, {
  cwd: root,
  roots: [{ path: root, kind: "extra", scope: "user" }],
  rules: [],
  bundledDir: null,
  bundledCleanupDir: "/nonexistent/.system",
  watchThrottleMs: 50,
  catalog: { includeInstructions: true },
});
await platform.writeStdout(
  JSON.stringify({ skills: snap.skills.map((s) => s.name), warnings: snap.warnings }),
);
