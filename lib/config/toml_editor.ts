/**
 * The format-preserving TOML editor: Rust's `toml_edit` crate (what Codex edits its config.toml
 * with), compiled to WebAssembly by @rainbowatcher/toml-edit-js. It keeps comments, blank lines,
 * dotted keys, inline tables and multi-line strings as written, and a removed table takes its own
 * leading comment with it, never the next one's.
 *
 * It is loaded on first use (a gzipped copy of the wasm is inlined in `_toml_edit_wasm.generated.ts`,
 * so dist/trellis stays one file): ~2 ms to inflate and ~5 ms (Deno) / ~25 ms (the Bun binary) to
 * compile, paid only by the commands that edit config; `trellis exec` never loads it.
 *
 * This module only drives the editor; `config_edit.ts` checks every result against the intended
 * change with a second, independent parser (smol-toml) before anything is written.
 */

/** A value the editor writes: strings, integers, floats, booleans, arrays and (inline) tables. */
export type TomlValue = string | number | boolean | TomlValue[] | { [key: string]: TomlValue };

export interface TomlEditor {
  /**
   * Sets `value` at `keyPath` (creating missing tables), or removes the item there when `value` is
   * undefined. `keyPath` has at least two segments (the package cannot address a top-level key).
   */
  edit(text: string, keyPath: string[], value: TomlValue | undefined): string;
}

/** Why the editor could not make an edit (an unaddressable key, a path through a non-table). */
export class TomlEditError extends Error {
  constructor(message: string, readonly keyPath: string[], readonly panicked = false) {
    super(message);
    this.name = "TomlEditError";
  }
}

interface TomlEditGlue {
  default(init: { module_or_path: Uint8Array }): Promise<unknown>;
  edit(input: string, path: string, value: unknown, opts?: { finalNewline?: boolean }): string;
}

let editor: Promise<TomlEditor> | undefined;

/** The editor, instantiated once per process. */
export function loadTomlEditor(): Promise<TomlEditor> {
  return editor ??= instantiate().catch((error) => {
    editor = undefined;
    throw error;
  });
}

async function instantiate(): Promise<TomlEditor> {
  const [wasm, glue] = await Promise.all([
    // A data module with no imports (so it can hide no cycle), split off so only editing loads it.
    import("./_toml_edit_wasm.generated.ts"),
    import("@rainbowatcher/toml-edit-js/index") as Promise<unknown> as Promise<TomlEditGlue>,
  ]);
  await glue.default({ module_or_path: await gunzip(fromBase64(wasm.TOML_EDIT_WASM_GZIP_BASE64)) });
  return {
    edit(text, keyPath, value) {
      if (keyPath.length < 2) throw new TomlEditError("a top-level key cannot be edited", keyPath);
      const bom = text.startsWith("\ufeff") ? "\ufeff" : "";
      let out: string;
      const encoded = encodeKeyPath(keyPath);
      // A Rust panic inside the package is reported through console.error before it throws; the
      // caller turns the throw into its own message (or a fallback), so the report is held back.
      const report = console.error;
      console.error = () => {};
      try {
        out = glue.edit(text.slice(bom.length), encoded, value);
      } catch (error) {
        const message = String((error as Error)?.message ?? error);
        throw new TomlEditError(message, keyPath, error instanceof WebAssembly.RuntimeError);
      } finally {
        console.error = report;
      }
      // toml_edit writes "\n" after the lines it touches; a file written with CRLF keeps CRLF.
      if (text.includes("\r\n") && !/(^|[^\r])\n/.test(text)) out = out.replace(/\r?\n/g, "\r\n");
      return bom + out;
    },
  };
}

/**
 * The package's path syntax: segments joined by "." outside double quotes (each `"` toggles), the
 * quotes around a segment dropped, nothing escaped, a segment `[n]` an array index. So every key is
 * written in quotes, which carries anything but two cases, refused by name: a key that is exactly
 * `[digits]`, and a key with an odd number of `"` that is not last or holds a "." (the open quote
 * would swallow the next ".").
 * Whatever the package makes of a path, config_edit.ts checks the result before it is written.
 */
export function encodeKeyPath(keyPath: string[]): string {
  return keyPath.map((key, index) => {
    const quotes = key.split('"').length - 1;
    const odd = quotes % 2 === 1 && (index < keyPath.length - 1 || key.includes("."));
    if (/^\[\d+\]$/.test(key) || odd) {
      throw new TomlEditError(`the editor cannot address the key ${JSON.stringify(key)}`, keyPath);
    }
    return `"${key}"`;
  }).join(".");
}

function fromBase64(text: string): Uint8Array {
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

async function gunzip(bytes: Uint8Array): Promise<Uint8Array> {
  const stream = new Blob([bytes as BufferSource]).stream().pipeThrough(new DecompressionStream("gzip"));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}
