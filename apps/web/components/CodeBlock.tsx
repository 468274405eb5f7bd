"use client";
import type { Element, ElementContent, Root } from "hast";
import { common, createLowlight } from "lowlight";
import { memo, type ReactNode, useMemo } from "react";

// highlight.js's common set (about 37 languages: sh, diff, ts, js, json, py, go, rust, ...) covers
// what coding agents write; no auto-detection, which is slow and guesses.
const lowlight = createLowlight(common);

/**
 * A fenced code block from agent Markdown. Highlighted only when its language is known and the
 * fence is closed (see code-fence.ts); memoised on its text, so a block that did not change is
 * not highlighted again when a later part of the message streams in.
 */
export const CodeBlock = memo(function CodeBlock({ code, language, highlight }: { code: string; language: string | null; highlight: boolean }) {
  const tokens = useMemo(() => {
    if (!highlight || language === null || !lowlight.registered(language)) return null;
    return renderHast(lowlight.highlight(language, code));
  }, [code, language, highlight]);
  return (
    <pre className="md-code" data-language={language ?? undefined}>
      <code className={tokens === null ? undefined : "hljs"}>{tokens ?? code}</code>
    </pre>
  );
});

/** lowlight's tree holds only text and `<span class="hljs-…">`: render exactly that, nothing else. */
function renderHast(root: Root): ReactNode[] {
  return root.children.map((child, i) => renderNode(child as ElementContent, i));
}

function renderNode(node: ElementContent, key: number): ReactNode {
  if (node.type === "text") return node.value;
  if (node.type !== "element") return null;
  const el = node as Element;
  const className = Array.isArray(el.properties.className) ? el.properties.className.join(" ") : undefined;
  return (
    <span key={key} className={className}>
      {el.children.map((child, i) => renderNode(child, i))}
    </span>
  );
}
