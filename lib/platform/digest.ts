import process from "node:process";

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

type NodeCrypto = typeof import("node:crypto");
let crypto: NodeCrypto | undefined;

function nodeCrypto(): NodeCrypto {
  // deno-lint-ignore no-explicit-any
  return crypto ??= (process as any).getBuiltinModule("node:crypto") as NodeCrypto;
}
