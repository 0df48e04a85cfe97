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

/** An incremental hash, for content read in chunks (a large file never held whole in memory). */
export interface IncrementalDigest {
  update(data: Uint8Array): void;
  hex(): string;
}

export function createDigest(algorithm: "sha1" | "sha256"): IncrementalDigest {
  // deno-lint-ignore no-explicit-any
  const bun = (globalThis as any).Bun;
  const hasher = bun ? new bun.CryptoHasher(algorithm) : nodeCrypto().createHash(algorithm);
  return { update: (data) => void hasher.update(data), hex: () => hasher.digest("hex") };
}
