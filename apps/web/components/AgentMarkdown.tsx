"use client";
import { createContext, memo, type ReactNode, useContext, useDeferredValue, useMemo } from "react";
import { useTranslation } from "react-i18next";
import Markdown, { type Components, type Options } from "react-markdown";
import remarkGfm from "remark-gfm";
import { splitBlocks } from "../lib/markdown/blocks";
import { fenceLanguage, isClosedFence } from "../lib/markdown/code-fence";
import { AGENT_LINK_REL, AGENT_LINK_TARGET, linkHref } from "../lib/markdown/link-rule";
import { CodeBlock } from "./CodeBlock";

/**
 * Agent text (a reply or a thought) as GitHub-flavoured Markdown. The text is untrusted:
 * react-markdown builds React elements, never HTML, and without rehype-raw any raw HTML in the
 * text becomes a text node (`<img onerror>` shows as those characters). Links keep only absolute
 * http(s)/mailto URLs (link-rule.ts) and open in a new tab without an opener; images are never
 * loaded (a remote image is a beacon that can carry what the agent read) but shown as a link.
 */
export const AgentMarkdown = memo(function AgentMarkdown({ text, className }: { text: string; className: string }) {
  const { t } = useTranslation();
  const remarkRehypeOptions = useMemo<Options["remarkRehypeOptions"]>(
    () => ({ footnoteLabel: t("task.markdown.footnotes"), footnoteBackLabel: (index) => t("task.markdown.footnoteBack", { n: index + 1 }) }),
    [t],
  );
  // While deltas arrive faster than a render, React may drop the in-between texts and keeps the
  // page responsive; each piece re-renders only when its own text changed (blocks.ts).
  const shown = useDeferredValue(text);
  const blocks = useMemo(() => splitBlocks(shown), [shown]);
  return (
    <div className={`markdown ${className}`}>
      {blocks.map((source, i) => (
        // A piece's index is its identity: streaming only appends, so earlier pieces keep theirs.
        // biome-ignore lint/suspicious/noArrayIndexKey: see above; the text is not unique.
        <MarkdownBlock key={i} source={source} remarkRehypeOptions={remarkRehypeOptions} />
      ))}
    </div>
  );
});

const remarkPlugins: Options["remarkPlugins"] = [remarkGfm];

/** The source of the block being rendered, so a code block can tell whether its fence is closed. */
const BlockSource = createContext("");

const MarkdownBlock = memo(function MarkdownBlock({
  source,
  remarkRehypeOptions,
}: {
  source: string;
  remarkRehypeOptions: Options["remarkRehypeOptions"];
}) {
  return (
    <BlockSource.Provider value={source}>
      <Markdown remarkPlugins={remarkPlugins} remarkRehypeOptions={remarkRehypeOptions} urlTransform={linkHref} components={components}>
        {source}
      </Markdown>
    </BlockSource.Provider>
  );
});

function AgentLink({ href, children }: { href?: string; children?: ReactNode }) {
  const { t } = useTranslation();
  // urlTransform already dropped every href linkHref refused: what is left is shown as text.
  if (!href) return <span className="md-link-refused">{children}</span>;
  return (
    <a href={href} target={AGENT_LINK_TARGET} rel={AGENT_LINK_REL} title={t("task.markdown.opensInNewTab", { url: href })}>
      {children}
    </a>
  );
}

function AgentImage({ src, alt }: { src?: string | Blob; alt?: string }) {
  const { t } = useTranslation();
  const label = t("task.markdown.image", { alt: alt ?? "" });
  if (typeof src !== "string" || !src) return <span className="md-link-refused">{label}</span>;
  return <AgentLink href={src}>{label}</AgentLink>;
}

function FencedCode({ node, children }: { node?: import("hast").Element; children?: ReactNode }) {
  const source = useContext(BlockSource);
  const code = node?.children[0];
  if (code?.type !== "element" || code.tagName !== "code") return <pre className="md-code">{children}</pre>;
  const text = code.children.map((c) => (c.type === "text" ? c.value : "")).join("");
  const start = node?.position?.start.offset;
  const end = node?.position?.end.offset;
  const closed = start !== undefined && end !== undefined && isClosedFence(source.slice(start, end));
  return <CodeBlock code={text} language={fenceLanguage(code.properties.className)} highlight={closed} />;
}

function Table({ children }: { children?: ReactNode }) {
  // The wrapper scrolls a wide table sideways instead of widening the bubble.
  return (
    <div className="md-table">
      <table>{children}</table>
    </div>
  );
}

const components: Components = {
  a: ({ href, children }) => <AgentLink href={href}>{children}</AgentLink>,
  img: ({ src, alt }) => <AgentImage src={src} alt={alt} />,
  pre: FencedCode,
  table: Table,
};
