import type { TrellisConfig } from "../config/mod.ts";

/** `[agents]` with its defaults (Codex's: 6 threads, depth 1; a job stops after 30 minutes). */
export interface AgentLimits {
  maxThreads: number;
  maxDepth: number;
  jobMaxRuntimeMs: number;
}

export function agentLimits(config: TrellisConfig): AgentLimits {
  const agents = config.agents ?? {};
  return {
    maxThreads: agents.max_threads ?? 6,
    maxDepth: agents.max_depth ?? 1,
    jobMaxRuntimeMs: (agents.job_max_runtime_sec ?? 1800) * 1000,
  };
}
