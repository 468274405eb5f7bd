import type { ToolKindIcon as Kind } from "../../lib/tool-call-view";

/** One 16px outline path per ACP tool kind. */
const PATHS: Record<Kind, string> = {
  read: "M2.5 3.5h4a1.5 1.5 0 0 1 1.5 1.5v8a1.5 1.5 0 0 0-1.5-1.5h-4Zm11 0h-4A1.5 1.5 0 0 0 8 5v8a1.5 1.5 0 0 1 1.5-1.5h4Z",
  edit: "M10.5 2.5l3 3-7.5 7.5H3v-3Zm-2 2 3 3",
  delete: "M3 4.5h10M6.5 4.5V3h3v1.5M4.5 4.5l.7 8.5h5.6l.7-8.5",
  move: "M2.5 8h10M10 5l3 3-3 3",
  search: "M7 3a4 4 0 1 1 0 8 4 4 0 0 1 0-8Zm2.9 6.9 3.6 3.6",
  execute: "M2.5 3.5h11v9h-11Zm2 3 2 1.5-2 1.5m3.5 1h3",
  think: "M8 2.5a4 4 0 0 1 2.5 7.1V11h-5V9.6A4 4 0 0 1 8 2.5ZM6 13.5h4",
  fetch: "M8 2.5v8M5 7.5l3 3 3-3M3 13.5h10",
  switch_mode: "M3 5.5h9l-2.5-2.5M13 10.5H4l2.5 2.5",
  other: "M10.2 2.6a3.3 3.3 0 0 0-3.9 4.3L2.6 10.6a1.3 1.3 0 0 0 1.8 1.9l3.7-3.8a3.3 3.3 0 0 0 4.3-3.9l-1.9 1.9-1.8-.4-.4-1.8 1.9-1.9Z",
};

export function ToolKindIcon({ kind }: { kind: Kind }) {
  return (
    <svg className="tool-call__icon" data-kind={kind} width="16" height="16" viewBox="0 0 16 16" aria-hidden="true" focusable="false">
      <path d={PATHS[kind]} fill="none" stroke="currentColor" strokeWidth="1.3" strokeLinecap="round" strokeLinejoin="round" />
    </svg>
  );
}
