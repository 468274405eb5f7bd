"use client";
import { useState } from "react";
import type { Option } from "@kandev/protocol";
import { ClarificationOption } from "./ClarificationOption";

/**
 * The options of one question as a radio group (single-select) or a group of checkboxes
 * (multi-select), with one tab stop: arrows move between options, Space or a digit picks.
 * Options keep the order the agent declared them in; they are never sorted.
 */
export function ClarificationOptions({
  questionId,
  options,
  selected,
  multi,
  labelledBy,
  describedBy,
  disabled,
  onPick,
}: {
  questionId: string;
  options: readonly Option[];
  selected: readonly string[];
  multi: boolean;
  labelledBy: string;
  /** The question's hint line ("Pick one", "Pick any"...), read out with the group. */
  describedBy: string;
  disabled: boolean;
  onPick: (index: number) => void;
}) {
  const firstSelected = options.findIndex((o) => selected.includes(o.id));
  const [active, setActive] = useState(Math.max(firstSelected, 0));
  return (
    // biome-ignore lint/a11y/useAriaPropsSupportedByRole: the role is group or radiogroup, both named by aria-labelledby; Biome cannot resolve a role chosen at run time.
    <div
      className={`cq__options${multi ? " cq__options--multi" : ""}`}
      role={multi ? "group" : "radiogroup"}
      aria-labelledby={labelledBy}
      aria-describedby={describedBy}
    >
      {options.map((o, i) => (
        <ClarificationOption
          key={o.id}
          testId={`clarification-option-${questionId}-${i}`}
          option={o}
          index={i}
          multi={multi}
          checked={selected.includes(o.id)}
          tabbable={i === active}
          disabled={disabled}
          onFocus={() => setActive(i)}
          onPick={() => onPick(i)}
        />
      ))}
    </div>
  );
}
