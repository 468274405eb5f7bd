/**
 * Cuts agent Markdown into top-level pieces that render the same one by one as the whole text
 * does, so a streamed message re-parses only its last piece per delta (AgentMarkdown memoises the
 * others on their text). Measured on a 20 KB reply of headings, lists, tables and fences on
 * this project's 2-core machine (Node 20, React production build, renderToStaticMarkup): the
 * whole text takes ~270 ms to parse and render, a last piece ~1-10 ms, the split ~0.2 ms (commit
 * "web: a streamed reply re-parses only its last Markdown block").
 *
 * The rule leans towards not cutting: a missed cut costs time, a wrong one changes the rendering.
 * A cut is made at a blank line outside a fence (and outside a multi-line HTML block, which shows
 * as text) when the next line starts at column 0 and is not a list item (which could continue a
 * loose list). After a blank line such a line can continue no block. Text with a link reference or
 * footnote definition (`[x]: ...`) is never cut: a definition applies to the whole text.
 */
export function splitBlocks(text: string): string[] {
  if (DEFINITION.test(text)) return [text];
  const blocks: string[] = [];
  const lines = text.split("\n");
  let start = 0; // offset where the current block starts
  let offset = 0; // offset of the current line
  let open: Opener | null = null;
  let blankSince = -1; // offset of the first blank line of the current run, or -1
  for (const line of lines) {
    if (open !== null) {
      if (open.closes(line)) open = null;
    } else if (line.trim() === "") {
      if (blankSince < 0) blankSince = offset;
    } else {
      if (blankSince >= 0 && start < blankSince && /^\S/.test(line) && !LIST_ITEM.test(line)) {
        blocks.push(text.slice(start, blankSince));
        start = offset;
      }
      blankSince = -1;
      open = opener(line);
    }
    offset += line.length + 1;
  }
  blocks.push(text.slice(start));
  return blocks;
}

const DEFINITION = /^ {0,3}\[[^\]\n]+\]:/m;
const LIST_ITEM = /^([-+*]|\d{1,9}[.)])([ \t]|$)/;

interface Opener {
  closes(line: string): boolean;
}

/** A line that opens a block running across blank lines: a code fence or an HTML block of kind 1-2. */
function opener(line: string): Opener | null {
  // Any indentation or quote marker: a fence in a list item or a block quote counts too.
  const fence = /^[ \t>]*(`{3,}|~{3,})/.exec(line);
  if (fence?.[1]) {
    const mark = fence[1];
    if (mark[0] === "`" && line.slice(fence[0].length).includes("`")) return null; // inline code, not a fence
    const close = new RegExp(`^[ \\t>]*${mark[0] === "`" ? "`" : "~"}{${mark.length},}[ \\t]*$`);
    return { closes: (l) => close.test(l) };
  }
  const html = /^ {0,3}<(script|pre|style|textarea|!--)/i.exec(line);
  if (html?.[1]) {
    const end = html[1] === "!--" ? "-->" : `</${html[1].toLowerCase()}>`;
    if (line.toLowerCase().includes(end, html[0].length)) return null;
    return { closes: (l) => l.toLowerCase().includes(end) };
  }
  return null;
}
