"use client";
import { useTranslation } from "react-i18next";
import type { TaskStateIcon as IconName } from "../lib/task-state-icon";

// The glyphs are drawn by CSS (state-icons.css): one element per icon, painted in currentColor
// through a mask, with `.state-icon--<name>` choosing glyph and colour. An inline SVG added two to
// four nodes per icon, and the board draws a thousand of them.

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
      style={size === 20 ? undefined : { width: size, height: size }}
    />
  );
}
