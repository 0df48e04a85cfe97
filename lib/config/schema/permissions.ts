import { z } from "../../shared/mod.ts";

/**
 * `[permissions]`: Claude Code's permission rules in Trellis's own layers (`allow`, `ask`, `deny`
 * arrays of `Tool` / `Tool(specifier)` rules). The arrays stay `unknown` on purpose: the rules
 * loader checks each array and parses each rule, so a wrong shape or a rule that does not parse is
 * one warning naming it and the others still hold — never a config error that stops every
 * command (a deny dropped with the rest would be worse).
 */
const permissionsSchema = () =>
  z.looseObject({
    allow: z.optional(z.unknown()),
    ask: z.optional(z.unknown()),
    deny: z.optional(z.unknown()),
  });

export const permissionsSections = {
  permissions: permissionsSchema,
};
