"use client";
import type { Option } from "@kandev/protocol";

/**
 * One option: a radio or checkbox (ARIA on a button, so a click, Space and Enter all reach it),
 * numbered 1-9 for the keyboard, with the agent's label and description as plain text.
 */
export function ClarificationOption({
  testId,
  option,
  index,
  multi,
  checked,
  tabbable,
  disabled,
  onFocus,
  onPick,
}: {
  testId: string;
  option: Option;
  index: number;
  multi: boolean;
  checked: boolean;
  tabbable: boolean;
  disabled: boolean;
  onFocus: () => void;
  onPick: () => void;
}) {
  const labelId = `${testId}-label`;
  const descId = `${testId}-desc`;
  return (
    // biome-ignore lint/a11y/useAriaPropsSupportedByRole: the role is checkbox or radio, both of which carry aria-checked; Biome cannot resolve a role chosen at run time.
    <button
      type="button"
      role={multi ? "checkbox" : "radio"}
      aria-checked={checked}
      aria-labelledby={labelId}
      aria-describedby={option.description ? descId : undefined}
      aria-disabled={disabled || undefined}
      className={`cq__option${checked ? " cq__option--checked" : ""}`}
      data-testid={testId}
      data-option-index={index}
      data-checked={checked ? "true" : "false"}
      tabIndex={tabbable ? 0 : -1}
      onFocus={onFocus}
      onClick={() => {
        if (!disabled) onPick();
      }}
    >
      <span className={`cq__mark${multi ? " cq__mark--box" : ""}`} aria-hidden="true">
        {checked ? (
          multi ? (
            <svg width="12" height="12" viewBox="0 0 12 12" aria-hidden="true" focusable="false">
              <path d="m2.5 6.2 2.3 2.3 4.7-5" fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" strokeLinejoin="round" />
            </svg>
          ) : (
            <span className="cq__dot" />
          )
        ) : null}
      </span>
      <span className="cq__option-text">
        <span className="cq__label" id={labelId}>
          {option.label}
        </span>
        {option.description ? (
          <span className="cq__desc" id={descId}>
            {option.description}
          </span>
        ) : null}
      </span>
      {index < 9 ? (
        <span className="cq__key" aria-hidden="true">
          {index + 1}
        </span>
      ) : null}
    </button>
  );
}
