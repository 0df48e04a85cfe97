/**
 * Mutants derived mechanically from a file's TypeScript syntax tree (issue #26 item 4), so the
 * tests are measured by changes they did not choose. Each operator is one small, plausible slip:
 *
 * - `flip-comparison`: `<` ↔ `>=`, `>` ↔ `<=`, `===` ↔ `!==`, `==` ↔ `!=`
 * - `negate-condition`: the condition of an `if`, loop or `?:` becomes `!(…)`
 * - `drop-term`: `a && b` (also `||`, `??`) becomes `a`, and `b`
 * - `shift-bound`: a number compared against moves by one, up and down
 * - `remove-exit`: an early `return` or `throw` (not the last statement of its function) goes
 * - `swap-arguments`: two neighbouring call arguments of the same type trade places
 * - `empty-string`: a string constant becomes `""`
 *
 * Import/export specifiers, types, property names and directives are never mutated. A mutant is a
 * span of the original text and its replacement, applied to a scratch copy only.
 */
import ts from "typescript";

export type Operator =
  | "flip-comparison"
  | "negate-condition"
  | "drop-term"
  | "shift-bound"
  | "remove-exit"
  | "swap-arguments"
  | "empty-string";

export const OPERATORS: readonly Operator[] = [
  "flip-comparison",
  "negate-condition",
  "drop-term",
  "shift-bound",
  "remove-exit",
  "swap-arguments",
  "empty-string",
];

export interface GeneratedMutant {
  /** `<file>:<line>:<column>:<operator>[:<n>]`, stable while the file's text is. */
  id: string;
  file: string;
  /** 1-based line and column of the mutated span. */
  line: number;
  column: number;
  operator: Operator;
  /** The span of the original text that is replaced, and what replaces it. */
  start: number;
  end: number;
  original: string;
  replace: string;
}

const FLIPPED: Partial<Record<ts.SyntaxKind, string>> = {
  [ts.SyntaxKind.LessThanToken]: ">=",
  [ts.SyntaxKind.LessThanEqualsToken]: ">",
  [ts.SyntaxKind.GreaterThanToken]: "<=",
  [ts.SyntaxKind.GreaterThanEqualsToken]: "<",
  [ts.SyntaxKind.EqualsEqualsEqualsToken]: "!==",
  [ts.SyntaxKind.ExclamationEqualsEqualsToken]: "===",
  [ts.SyntaxKind.EqualsEqualsToken]: "!=",
  [ts.SyntaxKind.ExclamationEqualsToken]: "==",
};
const LOGICAL = new Set([
  ts.SyntaxKind.AmpersandAmpersandToken,
  ts.SyntaxKind.BarBarToken,
  ts.SyntaxKind.QuestionQuestionToken,
]);

/** Answers "do these two expressions have the same type?"; null when no checker is at hand. */
export type SameType = (a: ts.Expression, b: ts.Expression) => boolean;

/**
 * Every mutant of `text` (the content of `file`, a path used only for naming). `sameType` decides
 * argument swaps; without it, two arguments swap only when both are literals of one kind.
 */
export function generateMutants(
  file: string,
  text: string,
  source: ts.SourceFile = parse(file, text),
  sameType: SameType = sameLiteralKind,
): GeneratedMutant[] {
  const mutants: GeneratedMutant[] = [];
  const add = (operator: Operator, start: number, end: number, replace: string) => {
    const { line, character } = source.getLineAndCharacterOfPosition(start);
    const base = `${file}:${line + 1}:${character + 1}:${operator}`;
    const same = mutants.filter((m) => m.id === base || m.id.startsWith(`${base}:`)).length;
    mutants.push({
      id: same ? `${base}:${same + 1}` : base,
      file,
      line: line + 1,
      column: character + 1,
      operator,
      start,
      end,
      original: text.slice(start, end),
      replace,
    });
  };
  const span = (node: ts.Node) => [node.getStart(source), node.end] as const;
  const textOf = (node: ts.Node) => node.getText(source);

  const visit = (node: ts.Node): void => {
    if (isNeverMutated(node)) return;
    if (ts.isBinaryExpression(node)) {
      const kind = node.operatorToken.kind;
      const flipped = FLIPPED[kind];
      if (flipped) {
        add("flip-comparison", node.operatorToken.getStart(source), node.operatorToken.end, flipped);
        for (const side of [node.left, node.right]) {
          const n = numberOf(side);
          if (n === null) continue;
          const [start, end] = span(side);
          add("shift-bound", start, end, String(n + 1));
          add("shift-bound", start, end, String(n - 1));
        }
      }
      if (LOGICAL.has(kind)) {
        const [start, end] = span(node);
        add("drop-term", start, end, textOf(node.left));
        add("drop-term", start, end, textOf(node.right));
      }
    }
    const condition = conditionOf(node);
    if (condition) {
      const [start, end] = span(condition);
      add("negate-condition", start, end, `!(${textOf(condition)})`);
    }
    if ((ts.isReturnStatement(node) || ts.isThrowStatement(node)) && isEarlyExit(node)) {
      const [start, end] = span(node);
      add("remove-exit", start, end, "{}");
    }
    if ((ts.isCallExpression(node) || ts.isNewExpression(node)) && node.arguments) {
      const args = node.arguments;
      for (let i = 0; i + 1 < args.length; i++) {
        const [a, b] = [args[i], args[i + 1]];
        if (ts.isSpreadElement(a) || ts.isSpreadElement(b) || textOf(a) === textOf(b)) continue;
        if (!sameType(a, b)) continue;
        const between = text.slice(a.end, b.getStart(source));
        add("swap-arguments", a.getStart(source), b.end, textOf(b) + between + textOf(a));
      }
    }
    if ((ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) && node.text !== "") {
      if (isMutableString(node)) add("empty-string", ...span(node), '""');
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return mutants.sort((x, y) => x.start - y.start || x.end - y.end || x.id.localeCompare(y.id));
}

export function parse(file: string, text: string): ts.SourceFile {
  const kind = file.endsWith(".tsx")
    ? ts.ScriptKind.TSX
    : file.endsWith(".ts")
    ? ts.ScriptKind.TS
    : ts.ScriptKind.JS;
  return ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, kind);
}

/** The file's text with the mutant applied; throws when the text moved on since it was generated. */
export function applyGenerated(content: string, mutant: GeneratedMutant): string {
  if (content.slice(mutant.start, mutant.end) !== mutant.original) {
    throw new Error(`${mutant.id}: ${mutant.file} changed since its mutants were generated`);
  }
  return content.slice(0, mutant.start) + mutant.replace + content.slice(mutant.end);
}

/** Declarations and positions where a change is not a behaviour change (or not valid code). */
function isNeverMutated(node: ts.Node): boolean {
  return ts.isImportDeclaration(node) || ts.isExportDeclaration(node) || ts.isImportEqualsDeclaration(node) ||
    ts.isTypeAliasDeclaration(node) || ts.isInterfaceDeclaration(node) || ts.isTypeNode(node) ||
    ts.isModuleDeclaration(node) || ts.isEnumDeclaration(node) ||
    (ts.canHaveModifiers(node) &&
      (ts.getModifiers(node) ?? []).some((m) => m.kind === ts.SyntaxKind.DeclareKeyword));
}

function conditionOf(node: ts.Node): ts.Expression | undefined {
  if (ts.isIfStatement(node) || ts.isWhileStatement(node) || ts.isDoStatement(node)) return node.expression;
  if (ts.isForStatement(node)) return node.condition;
  if (ts.isConditionalExpression(node)) return node.condition;
  return undefined;
}

/** A number literal, or a negated one, as its value. */
function numberOf(node: ts.Expression): number | null {
  if (ts.isNumericLiteral(node)) return Number(node.text);
  if (
    ts.isPrefixUnaryExpression(node) && node.operator === ts.SyntaxKind.MinusToken &&
    ts.isNumericLiteral(node.operand)
  ) return -Number(node.operand.text);
  return null;
}

/** Not the last statement of its function's body (which is where a function ends anyway). */
function isEarlyExit(node: ts.ReturnStatement | ts.ThrowStatement): boolean {
  const parent = node.parent;
  if (ts.isBlock(parent) && ts.isFunctionLike(parent.parent) && parent.statements.at(-1) === node) {
    return false;
  }
  if (ts.isSourceFile(parent)) return false;
  return true;
}

function isMutableString(node: ts.StringLiteral | ts.NoSubstitutionTemplateLiteral): boolean {
  const parent = node.parent;
  if (ts.isExpressionStatement(parent)) return false; // a directive ("use strict") or a no-op
  if (
    ts.isImportDeclaration(parent) || ts.isExportDeclaration(parent) || ts.isExternalModuleReference(parent)
  ) {
    return false;
  }
  if (ts.isCallExpression(parent) && parent.expression.kind === ts.SyntaxKind.ImportKeyword) return false;
  if (
    (ts.isPropertyAssignment(parent) || ts.isPropertyDeclaration(parent) || ts.isMethodDeclaration(parent) ||
      ts.isPropertySignature(parent) || ts.isEnumMember(parent) || ts.isGetAccessor(parent) ||
      ts.isSetAccessor(parent)) && parent.name === node
  ) return false;
  if (ts.isLiteralTypeNode(parent)) return false;
  return true;
}

/** Without a type checker: both arguments are literals of the same kind (two strings, two numbers). */
export function sameLiteralKind(a: ts.Expression, b: ts.Expression): boolean {
  const kind = (e: ts.Expression) =>
    ts.isStringLiteral(e) || ts.isNoSubstitutionTemplateLiteral(e)
      ? "string"
      : ts.isNumericLiteral(e)
      ? "number"
      : e.kind === ts.SyntaxKind.TrueKeyword || e.kind === ts.SyntaxKind.FalseKeyword
      ? "boolean"
      : null;
  return kind(a) !== null && kind(a) === kind(b);
}

/**
 * Parses `files` (absolute paths) as one program, resolving their relative imports, so argument
 * swaps compare real types. Types it cannot see (npm packages, `Deno`) are `any` and never swap.
 */
export function typedSources(
  files: string[],
): { source: (file: string) => ts.SourceFile; sameType: SameType } {
  const program = ts.createProgram(files, {
    noEmit: true,
    allowJs: true,
    allowImportingTsExtensions: true,
    target: ts.ScriptTarget.ESNext,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    skipLibCheck: true,
    strict: true,
    types: [],
  });
  const checker = program.getTypeChecker();
  const typeName = (e: ts.Expression) => {
    const type = checker.getBaseTypeOfLiteralType(checker.getTypeAtLocation(e));
    if (type.flags & (ts.TypeFlags.Any | ts.TypeFlags.Unknown | ts.TypeFlags.Never)) return null;
    return checker.typeToString(type);
  };
  return {
    source: (file) => program.getSourceFile(file) ?? parse(file, Deno.readTextFileSync(file)),
    sameType: (a, b) => {
      const name = typeName(a);
      return name !== null && name === typeName(b);
    },
  };
}

/** Drops mutants whose mutated text equals an earlier one's (`a && a` → `a` twice), keeping order. */
export function dedupe(mutants: GeneratedMutant[], textOf: (file: string) => string): {
  unique: GeneratedMutant[];
  duplicates: GeneratedMutant[];
} {
  const seen = new Set<string>();
  const unique: GeneratedMutant[] = [];
  const duplicates: GeneratedMutant[] = [];
  for (const m of mutants) {
    const key = `${m.file}\0${changeKey(textOf(m.file), m)}`;
    if (seen.has(key)) duplicates.push(m);
    else {
      seen.add(key);
      unique.push(m);
    }
  }
  return { unique, duplicates };
}

/**
 * What the mutant changes, in a form equal for two mutants exactly when their mutated texts are
 * equal, without building the text: the longest common prefix and suffix of the original and the
 * mutated text (both unique to that pair), and what lies between them in the mutated one.
 */
function changeKey(text: string, m: GeneratedMutant): string {
  const length = text.length - (m.end - m.start) + m.replace.length;
  const at = (i: number) =>
    i < m.start
      ? text[i]
      : i < m.start + m.replace.length
      ? m.replace[i - m.start]
      : text[i - m.replace.length + m.end - m.start];
  let prefix = m.start;
  while (prefix < length && prefix < text.length && at(prefix) === text[prefix]) prefix++;
  let suffix = 0;
  while (
    suffix < length - prefix && suffix < text.length - prefix &&
    at(length - 1 - suffix) === text[text.length - 1 - suffix]
  ) suffix++;
  let middle = "";
  for (let i = prefix; i < length - suffix; i++) middle += at(i);
  return `${prefix}\0${suffix}\0${middle}`;
}

/**
 * `size` mutants drawn by a seeded shuffle (mulberry32): the same seed over the same sources draws
 * the same sample. The sample comes back in file and position order.
 */
export function sample<T>(items: T[], size: number, seed: number): T[] {
  const pool = [...items];
  let state = seed >>> 0;
  const random = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  for (let i = pool.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [pool[i], pool[j]] = [pool[j], pool[i]];
  }
  const picked = new Set(pool.slice(0, size));
  return items.filter((item) => picked.has(item));
}
