"use client";
import type { ReactNode } from "react";

/**
 * One labelled field of an agent-profile form: an input, or a textarea of `rows` lines for values
 * written one per line (command arguments, `NAME=value` pairs). `error` is the field's error line
 * (an element with id `errorId`, `<id>-error` by default), or null; it marks the control invalid and
 * describes it.
 */
export function ProfileField({
  id,
  label,
  testId,
  value,
  onChange,
  placeholder,
  rows,
  error = null,
  errorId = `${id}-error`,
}: {
  id: string;
  label: string;
  testId: string;
  value: string;
  onChange: (e: { target: { value: string } }) => void;
  placeholder?: string;
  rows?: number;
  error?: ReactNode;
  errorId?: string;
}) {
  const invalid = error !== null && error !== undefined;
  const common = {
    id,
    "data-testid": testId,
    value,
    onChange,
    placeholder,
    "aria-invalid": invalid || undefined,
    "aria-describedby": invalid ? errorId : undefined,
  };
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      {rows === undefined ? <input {...common} autoComplete="off" /> : <textarea {...common} rows={rows} spellCheck={false} />}
      {error}
    </div>
  );
}
