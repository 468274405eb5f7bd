"use client";
import type { ReactNode } from "react";

/** A labelled switch (a checkbox styled as one) with optional help text and extra controls. */
export function ToggleRow({
  id,
  testId,
  label,
  help,
  checked,
  disabled,
  onChange,
  children,
}: {
  id: string;
  testId: string;
  label: string;
  help?: string;
  checked: boolean;
  disabled?: boolean;
  onChange: (checked: boolean) => void;
  children?: ReactNode;
}) {
  return (
    <div className="toggle-row">
      <input
        id={id}
        type="checkbox"
        // biome-ignore lint/a11y/useAriaPropsForRole: a native checkbox exposes its checked state to the switch role; ARIA in HTML says not to set aria-checked on it.
        role="switch"
        className="switch"
        checked={checked}
        disabled={disabled}
        aria-describedby={help ? `${id}-help` : undefined}
        onChange={(e) => onChange(e.target.checked)}
        data-testid={testId}
      />
      <div className="toggle-row__text">
        <label htmlFor={id}>{label}</label>
        {help ? (
          <p className="muted toggle-row__help" id={`${id}-help`}>
            {help}
          </p>
        ) : null}
      </div>
      {children ? <div className="toggle-row__extra">{children}</div> : null}
    </div>
  );
}
