"use client";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import type { TaskStateIcon as IconName } from "../lib/task-state-icon";

// 20x20 glyphs drawn with currentColor; the colour comes from `.state-icon--<name>` in CSS.
const GLYPHS: Record<IconName, ReactNode> = {
  todo: <circle cx="10" cy="10" r="6.5" fill="none" stroke="currentColor" strokeWidth="1.75" strokeDasharray="3 2.4" />,
  starting: (
    <g className="state-icon__spin state-icon__spin--slow">
      <circle cx="10" cy="10" r="6.5" fill="none" stroke="currentColor" strokeOpacity="0.25" strokeWidth="1.75" />
      <path d="M10 3.5a6.5 6.5 0 0 1 6.5 6.5" fill="none" stroke="currentColor" strokeWidth="1.75" strokeLinecap="round" />
    </g>
  ),
  running: (
    <g className="state-icon__spin">
      <circle cx="10" cy="10" r="6.5" fill="none" stroke="currentColor" strokeOpacity="0.2" strokeWidth="2" />
      <path d="M10 3.5a6.5 6.5 0 0 1 6.5 6.5" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
    </g>
  ),
  "waiting-for-input": (
    <>
      <circle cx="10" cy="10" r="7.5" fill="currentColor" />
      <path
        d="M8 8.1a2 2 0 1 1 2.9 1.8c-.6.3-.9.7-.9 1.3v.4"
        fill="none"
        stroke="var(--icon-ink)"
        strokeWidth="1.6"
        strokeLinecap="round"
      />
      <circle cx="10" cy="13.9" r="0.95" fill="var(--icon-ink)" />
    </>
  ),
  "waiting-for-permission": (
    <>
      <path d="M10 2.5 16 5v4.6c0 3.7-2.5 6.5-6 7.9-3.5-1.4-6-4.2-6-7.9V5l6-2.5Z" fill="currentColor" />
      <path d="M10 6.5v4" stroke="var(--icon-ink)" strokeWidth="1.7" strokeLinecap="round" />
      <circle cx="10" cy="13" r="0.95" fill="var(--icon-ink)" />
    </>
  ),
  "turn-finished": (
    <>
      <circle cx="10" cy="10" r="6.75" fill="none" stroke="currentColor" strokeWidth="1.75" />
      <circle cx="10" cy="10" r="3.25" fill="currentColor" />
    </>
  ),
  failed: (
    <>
      <circle cx="10" cy="10" r="7.5" fill="currentColor" />
      <path d="m7.4 7.4 5.2 5.2m0-5.2-5.2 5.2" stroke="var(--icon-ink)" strokeWidth="1.7" strokeLinecap="round" />
    </>
  ),
  cancelled: (
    <>
      <circle cx="10" cy="10" r="6.75" fill="none" stroke="currentColor" strokeWidth="1.75" />
      <path d="m5.6 14.4 8.8-8.8" stroke="currentColor" strokeWidth="1.75" strokeLinecap="round" />
    </>
  ),
  completed: (
    <>
      <circle cx="10" cy="10" r="7.5" fill="currentColor" />
      <path d="m6.9 10.2 2.1 2.1 4.2-4.4" fill="none" stroke="var(--icon-ink)" strokeWidth="1.7" strokeLinecap="round" strokeLinejoin="round" />
    </>
  ),
};

/** The task state glyph with an accessible name; `data-testid="task-state-<name>"`. */
export function TaskStateIcon({ name, size = 20 }: { name: IconName; size?: number }) {
  const { t } = useTranslation();
  return <StateGlyph name={name} size={size} label={t(`states.${name}`)} />;
}

/** The same glyph with its label given: no hook, for the board's thousand rows. */
export function StateGlyph({ name, size = 20, label }: { name: IconName; size?: number; label: string }) {
  return (
    <span
      role="img"
      aria-label={label}
      title={label}
      className={`state-icon state-icon--${name}`}
      data-testid={`task-state-${name}`}
    >
      <svg width={size} height={size} viewBox="0 0 20 20" aria-hidden="true" focusable="false">
        {GLYPHS[name]}
      </svg>
    </span>
  );
}
