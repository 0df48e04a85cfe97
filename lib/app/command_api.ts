/**
 * What the CLI's commands read and print beyond the Workspace (issue #16 item 5): pure functions
 * and types of the subsystems, re-exported here so lib/cli imports lib/app only. Nothing here wires
 * subsystems together — the Workspace and the operations beside it do; these act on what they
 * return (a runtime's manager, a skills snapshot, a hook handler) or format it for a person.
 */
export {
  APPROVAL_POLICIES,
  codexNotTakenLine,
  compatFiles,
  formatKeyPath,
  isTable,
  SANDBOX_MODES,
} from "../config/mod.ts";
export type { LoadedConfig } from "../config/mod.ts";
export { doctorHooks, reviewNotice, testHookEvent } from "../hooks/mod.ts";
export type { HookHandlerInfo, HookRunRecord, HookStateChange, PermissionRuleEntry } from "../hooks/mod.ts";
export {
  approvalChoices,
  approvalPromptLines,
  checkResumeId,
  noTtyApprover,
  promptingApprover,
  ttyApprover,
} from "../loop/mod.ts";
export type { ApprovalAnswer, ApprovalChoice, ApprovalRequest, Approver, TurnResult } from "../loop/mod.ts";
export {
  callManagerTool,
  diffServerTools,
  findServerTool,
  listEveryServer,
  listManagerPrompts,
  listManagerTools,
  openInBrowser,
  probeServer,
  promptArguments,
  readResourceOutput,
  visibleName,
} from "../mcp/mod.ts";
export type {
  ElicitationRequest,
  ElicitationResponder,
  ElicitationResponse,
  McpSandbox,
  McpServerOverview,
  Tool,
  ToolDiff,
} from "../mcp/mod.ts";
export type { LoadedPlugin, PluginComponent } from "../plugins/mod.ts";
export {
  extractFrontmatter,
  hiddenSkills,
  readSkillBody,
  renderSkillsCatalog,
  resolveSkillRef,
  skillOrigin,
} from "../skills/mod.ts";
export type { SkillMetadata, SkillsSnapshot } from "../skills/mod.ts";
