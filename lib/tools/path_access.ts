import * as nodePath from "node:path";
import { canonicalPath, isWithinPath } from "../platform/mod.ts";
import type { ApprovalNeed, ToolResult } from "../shared/mod.ts";
import type { PermissionProfile } from "./permission_profile.ts";
import { protectedPathOf, secretPathOf } from "./protected_paths.ts";

export type AccessKind = "read" | "write";

/** A path as the model gave it, the real path an operation would touch, and whether that needs approval. */
export interface PathAccess {
  requested: string;
  path: string;
  need: ApprovalNeed;
}

/** The platform's containment test, under the name the tools and their callers use. */
export const isWithin = isWithinPath;

function withinAny(roots: string[], path: string): boolean {
  return roots.some((root) => isWithin(root, path));
}

/**
 * Resolves `requested` against the workspace to the real path (symlinks and `..` resolved) and judges
 * it against the profile's roots. Tools then operate on `path`, never on `requested`, so what was
 * checked is what gets touched.
 */
export function checkPathAccess(profile: PermissionProfile, requested: string, kind: AccessKind): PathAccess {
  const path = canonicalPath(nodePath.resolve(profile.workspace, requested));
  const need = accessNeed(profile, path, kind);
  // The approval request names the exact real path, so a session approval covers only it (#13).
  const inHome = profile.userHome !== undefined && nodePath.dirname(path) === profile.userHome;
  const subject = {
    kind: "path" as const,
    path,
    access: kind,
    ...(inHome ? { noDirectoryScope: true as const } : {}),
  };
  return { requested, path, need: need.kind === "required" ? { ...need, subject } : need };
}

function accessNeed(profile: PermissionProfile, path: string, kind: AccessKind): ApprovalNeed {
  if (profile.sandboxMode === "danger-full-access") return { kind: "none" };
  if (kind === "read") {
    const secret = secretPathOf(profile, path);
    if (secret) return { kind: "required", reason: `reading "${path}": "${secret}" holds Trellis's secrets` };
    const roots = [profile.workspace, ...profile.writableRoots, ...profile.readableRoots];
    if (withinAny(roots, path)) return { kind: "none" };
    return { kind: "required", reason: `reading "${path}" outside the workspace and readable roots` };
  }
  if (profile.sandboxMode === "read-only") {
    return { kind: "required", reason: `writing "${path}" in read-only sandbox mode` };
  }
  if (!withinAny(profile.writableRoots, path)) {
    return { kind: "required", reason: `writing "${path}" outside the writable roots` };
  }
  const guarded = protectedPathOf(profile, path);
  if (guarded) {
    return {
      kind: "required",
      reason:
        `writing "${path}" inside the protected path "${guarded}" (it configures what runs outside the sandbox)`,
    };
  }
  if (profile.approvalPolicy === "untrusted") {
    return {
      kind: "required",
      reason: `writing "${path}" under approval policy untrusted`,
      policyOnly: true,
    };
  }
  return { kind: "none" };
}

/**
 * The run-time re-check: a call whose path needs approval runs only when it was escalated, so a
 * skipped approval (a bug elsewhere) can never write outside the roots.
 */
export function deniedUnlessEscalated(
  access: PathAccess,
  action: string,
  escalated: boolean,
): ToolResult | undefined {
  if (access.need.kind === "none" || (escalated && access.need.kind === "required")) return undefined;
  return {
    status: "denied",
    output: `Cannot ${action} "${access.requested}": ${access.need.reason} requires approval`,
  };
}
