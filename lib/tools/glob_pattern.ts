/**
 * Compiles a glob to an anchored RegExp over `/`-separated relative paths: `**` spans directories,
 * `*` and `?` stay within one segment, `{a,b}` alternates, `[...]` is a character class. A pattern
 * without `/` matches the base name at any depth, as `*.ts` does in ripgrep's `--glob`.
 */
export function globToRegExp(pattern: string): RegExp {
  const source = pattern.includes("/") ? pattern.replace(/^\.\//, "") : `**/${pattern}`;
  return new RegExp(`^${translate(source)}$`);
}

function translate(glob: string): string {
  let out = "";
  let depth = 0;
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i];
    if (c === "*" && glob[i + 1] === "*") {
      const slashAfter = glob[i + 2] === "/";
      out += slashAfter ? "(?:.*/)?" : ".*";
      i += slashAfter ? 2 : 1;
    } else if (c === "*") out += "[^/]*";
    else if (c === "?") out += "[^/]";
    else if (c === "{") {
      depth++;
      out += "(?:";
    } else if (c === "}" && depth > 0) {
      depth--;
      out += ")";
    } else if (c === "," && depth > 0) out += "|";
    else if (c === "[") {
      const end = glob.indexOf("]", i + 2);
      if (end === -1) out += "\\[";
      else {
        const body = glob.slice(i + 1, end).replace(/^!/, "^").replace(/\\/g, "\\\\");
        out += `[${body}]`;
        i = end;
      }
    } else out += c.replace(/[.+^$()|\\]/g, "\\$&");
  }
  return out;
}
