/**
 * The part of zod/mini that lib uses, re-exported by name. `z` is this module's namespace rather
 * than zod's own: zod's namespace carries every locale and the whole core as nested namespaces, which
 * a bundle must then evaluate at start-up (~8 ms of the compiled binary's start); named re-exports
 * let the bundler keep only what is used. A schema needing another zod function adds it here.
 * (`toJSONSchema` is left out on purpose: the built-in tools' JSON Schemas are generated ahead of
 * time, and its generator code need not load with every command.)
 */
export {
  _default,
  array,
  boolean,
  config,
  custom,
  enum,
  globalRegistry,
  gt,
  int,
  literal,
  looseObject,
  lte,
  maximum,
  memoizer,
  minimum,
  minLength,
  nonnegative,
  number,
  object,
  optional,
  pipe,
  positive,
  record,
  refine,
  safeParse,
  strictObject,
  string,
  superRefine,
  trim,
  union,
  unknown,
} from "zod/mini";
export type { infer, input, output, ZodMiniType } from "zod/mini";
export type * as core from "zod/v4/core";
