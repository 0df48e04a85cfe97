import { UsageError } from "../shared/mod.ts";
import {
  DEFAULT_APPROVAL_POLICY,
  DEFAULT_MODEL,
  DEFAULT_MODEL_PROVIDER,
  DEFAULT_SANDBOX_MODE,
} from "./defaults.ts";
import type { LoadedConfig } from "./load.ts";
import {
  APPROVAL_POLICIES,
  type ApprovalPolicy,
  SANDBOX_MODES,
  type SandboxMode,
} from "./schema/policies.ts";

/**
 * A session's effective settings, held once (#26 item 1): the approval policy, the sandbox mode and
 * the model as the layers resolved them and as `/approvals`, `/sandbox` and `/model` change them,
 * and the working directory and project root as real paths. The built-in tools (through the
 * permission profile), the loop, the MCP runtime and the hooks keep this object, never a copy of
 * a value in it, and read it when a call is judged: a change applies to the next call.
 */
export class SessionSettings {
  #approvalPolicy: ApprovalPolicy;
  #sandboxMode: SandboxMode;
  #model: string;
  /** The provider stays for the session (`/model` changes the model only). */
  readonly provider: string;
  /** The working directory's real path (see `TrellisPaths.cwd`). */
  readonly cwd: string;
  /** The project root's real path. */
  readonly projectRoot: string;

  constructor(init: {
    approvalPolicy?: ApprovalPolicy;
    sandboxMode?: SandboxMode;
    model?: string;
    provider?: string;
    cwd: string;
    projectRoot?: string;
  }) {
    this.#approvalPolicy = init.approvalPolicy ?? DEFAULT_APPROVAL_POLICY;
    this.#sandboxMode = init.sandboxMode ?? DEFAULT_SANDBOX_MODE;
    this.#model = init.model ?? DEFAULT_MODEL;
    this.provider = init.provider ?? DEFAULT_MODEL_PROVIDER;
    this.cwd = init.cwd;
    this.projectRoot = init.projectRoot ?? init.cwd;
  }

  /** The settings a loaded configuration gives (its paths are already real). */
  static fromConfig(loaded: Pick<LoadedConfig, "config" | "paths">): SessionSettings {
    const { config, paths } = loaded;
    return new SessionSettings({
      ...(config.approval_policy ? { approvalPolicy: config.approval_policy } : {}),
      ...(config.sandbox_mode ? { sandboxMode: config.sandbox_mode } : {}),
      ...(config.model ? { model: config.model } : {}),
      ...(config.model_provider ? { provider: config.model_provider } : {}),
      cwd: paths.cwd,
      projectRoot: paths.projectRoot,
    });
  }

  get approvalPolicy(): ApprovalPolicy {
    return this.#approvalPolicy;
  }

  get sandboxMode(): SandboxMode {
    return this.#sandboxMode;
  }

  get model(): string {
    return this.#model;
  }

  /** Shell commands run inside the sandbox (every mode but danger-full-access). */
  get sandboxed(): boolean {
    return this.#sandboxMode !== "danger-full-access";
  }

  /** `/approvals POLICY`; an unknown name is a UsageError listing the four, nothing changed. */
  setApprovalPolicy(policy: string): ApprovalPolicy {
    this.#approvalPolicy = oneOf(APPROVAL_POLICIES, policy, "approval policy", "approval_policy");
    return this.#approvalPolicy;
  }

  /** `/sandbox MODE`; an unknown name is a UsageError listing the three, nothing changed. */
  setSandboxMode(mode: string): SandboxMode {
    this.#sandboxMode = oneOf(SANDBOX_MODES, mode, "sandbox mode", "sandbox_mode");
    return this.#sandboxMode;
  }

  /** `/model NAME`; an empty name is a UsageError, nothing changed. */
  setModel(model: string): string {
    const name = model.trim();
    if (!name) throw new UsageError("A model name is needed (`/model NAME`)", { field: "model" });
    this.#model = name;
    return name;
  }
}

function oneOf<T extends string>(values: readonly T[], value: string, what: string, field: string): T {
  if ((values as readonly string[]).includes(value)) return value as T;
  throw new UsageError(`Unknown ${what} "${value}": use ${values.join(", ")}`, { field });
}
