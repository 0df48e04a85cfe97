import process from "node:process";
import { memo } from "../shared/mod.ts";

// deno-lint-ignore no-explicit-any
const nodeCrypto = memo(() =>
  (process as any).getBuiltinModule("node:crypto") as typeof import("node:crypto")
);

/**
 * Hex digest of a string or bytes. Bun's native hasher is a global; elsewhere node:crypto is loaded
 * on first use, not at start-up (loading it costs a short command ~9 ms in the Bun binary).
 */
export function digestHex(algorithm: "sha1" | "sha256", data: string | Uint8Array): string {
  // deno-lint-ignore no-explicit-any
  const bun = (globalThis as any).Bun;
  if (bun) return new bun.CryptoHasher(algorithm).update(data).digest("hex");
  return nodeCrypto().createHash(algorithm).update(data).digest("hex");
}
