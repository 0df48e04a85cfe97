import * as nodePath from "node:path";
import {
  type ApprovalSubject,
  commandPathWords,
  type NamedFileState,
  type SessionScope,
} from "../shared/mod.ts";

/**
 * Session approvals scoped to what the person saw (#13 item 3): "always" for `npm --version` covers
 * that exact command again — in the same directory and the same sandbox placement — never `rm -rf x`,
 * and never the same command run outside the sandbox; "always" for `/outside/x` covers that path,
 * never `~/.bashrc`. Wider scopes exist only where the prompt names them: a two-word command prefix,
 * the path's directory. A command's scope also holds the content of the files it names (#20 item 7):
 * "always" for `./build.sh` is for that script's bytes, and after a rewrite it is asked again.
 */

// Words bash passes through unchanged: no quotes, globs, variables, operators, redirections or `~`.
const PLAIN_WORD = /^[A-Za-z0-9_.,/=:@%+-]+$/;
const PREFIX_WORDS = 2;

/** The session approvals a prompt may offer for `subject`, narrowest first. */
export function sessionScopesFor(subject: ApprovalSubject): SessionScope[] {
  switch (subject.kind) {
    case "command": {
      const { command, cwd, sandbox } = subject;
      const scopes: SessionScope[] = [{
        kind: "command",
        command,
        cwd,
        sandbox,
        ...withFiles(subject.files),
      }];
      const prefix = offeredPrefix(command);
      if (prefix) {
        const files = namedBy(prefix, cwd, subject.files);
        scopes.push({ kind: "command_prefix", prefix, cwd, sandbox, ...withFiles(files) });
      }
      return scopes;
    }
    case "path": {
      const scopes: SessionScope[] = [{ kind: "path", path: subject.path, access: subject.access }];
      const directory = nodePath.dirname(subject.path);
      // The root directory would approve every path, $HOME every dotfile: never offered.
      if (directory !== subject.path && directory !== "/" && !subject.noDirectoryScope) {
        scopes.push({ kind: "directory", directory, access: subject.access });
      }
      return scopes;
    }
    case "action":
      return [{ kind: "action", name: subject.name }];
    default: {
      const never: never = subject;
      return never;
    }
  }
}

/** Whether a session approval given for `scope` answers a new request about `subject`. */
export function scopeCovers(scope: SessionScope, subject: ApprovalSubject): boolean {
  switch (scope.kind) {
    case "command":
      return subject.kind === "command" && subject.command === scope.command && sameRun(scope, subject) &&
        sameFiles(scope.files, subject.files);
    case "command_prefix": {
      if (subject.kind !== "command" || !sameRun(scope, subject)) return false;
      const words = plainWords(subject.command);
      return words !== null && scope.prefix.every((word, i) => words[i] === word) &&
        sameFiles(scope.files, namedBy(scope.prefix, scope.cwd, subject.files));
    }
    case "path":
      return subject.kind === "path" && subject.access === scope.access && subject.path === scope.path;
    case "directory":
      return subject.kind === "path" && subject.access === scope.access &&
        subject.path.startsWith(scope.directory === "/" ? "/" : scope.directory + "/");
    case "action":
      return subject.kind === "action" && subject.name === scope.name;
    default: {
      const never: never = scope;
      return never;
    }
  }
}

/** What a person granted "for this session", checked before anyone is asked again. */
export class SessionApprovals {
  #granted: SessionScope[] = [];

  /** The earlier grant that covers `subject`, if any. */
  covering(subject: ApprovalSubject): SessionScope | undefined {
    return this.#granted.find((scope) => scopeCovers(scope, subject));
  }

  /**
   * Records `chosen` (default: the narrowest offered scope) if it is one of the scopes `offered`;
   * anything else grants nothing, so an approver cannot widen what the prompt showed.
   */
  grant(offered: SessionScope[], chosen?: SessionScope): SessionScope | undefined {
    const scope = chosen === undefined ? offered[0] : offered.find((s) => sameScope(s, chosen));
    if (scope) this.#granted.push(scope);
    return scope;
  }
}

/** The first two words when both are plain and not options, and the command has more words. */
export function offeredPrefix(command: string): string[] | undefined {
  const words = plainWords(command);
  if (words === null || words.length <= PREFIX_WORDS) return undefined;
  const prefix = words.slice(0, PREFIX_WORDS);
  return prefix.every((word) => !word.startsWith("-")) ? prefix : undefined;
}

function plainWords(command: string): string[] | null {
  const words = command.trim().split(/ +/);
  return words[0] !== "" && words.every((word) => PLAIN_WORD.test(word)) ? words : null;
}

const withFiles = (files: NamedFileState[] | undefined) => files?.length ? { files } : {};

/** The files among `files` that `words` name (resolved against `cwd`). */
function namedBy(words: string[], cwd: string, files: NamedFileState[] | undefined): NamedFileState[] {
  if (!files?.length) return [];
  const named = new Set(commandPathWords(words.join(" ")).map((w) => nodePath.resolve(cwd, w)));
  return files.filter((f) => named.has(f.path));
}

/** Same files in the same state: a script rewritten, made executable or planted reads as another. */
function sameFiles(a: NamedFileState[] | undefined, b: NamedFileState[] | undefined): boolean {
  const key = (files: NamedFileState[] | undefined) =>
    (files ?? []).map((f) => `${f.state} ${f.path}`).sort().join("\n");
  return key(a) === key(b);
}

function sameRun(
  scope: { cwd: string; sandbox: string },
  subject: { cwd: string; sandbox: string },
): boolean {
  return scope.cwd === subject.cwd && scope.sandbox === subject.sandbox;
}

function sameScope(a: SessionScope, b: SessionScope): boolean {
  return JSON.stringify(a, Object.keys(a).sort()) === JSON.stringify(b, Object.keys(b).sort());
}
