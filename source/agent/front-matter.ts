const opening = /^\uFEFF?---[ \t]*\r?\n/;
const closing = /^(?:---|\.\.\.)[ \t]*$/m;

/**
 * The body of a markdown file without its YAML front matter. OpenClaw's
 * workspace files carry `summary:`/`read_when:` headers meant for tooling;
 * injected raw they only cost tokens and confuse the model. A file whose
 * first line is not `---`, or whose header never closes, is returned whole.
 */
export function stripFrontMatter(text: string): string {
  const open = opening.exec(text);
  if (!open) return text;
  const rest = text.slice(open[0].length);
  const close = closing.exec(rest);
  if (!close) return text;
  return rest.slice(close.index + close[0].length).replace(/^\r?\n/, '');
}
