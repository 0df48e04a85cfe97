/**
 * A schema built on first use. A run sets a handful of the config's sections; building every zod
 * node at start-up cost each command ~10 ms, so each section (and anything only it uses) is built
 * the first time a layer sets it.
 */
export { memo } from "../../shared/mod.ts";
