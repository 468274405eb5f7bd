"use client";
import { useId, useState, type FormEvent } from "react";
import type { Task } from "@kandev/protocol";
import { useTranslation } from "react-i18next";
import { ApiRequestError } from "../lib/api";
import { fieldProblemWords } from "../lib/field-errors";
import { say } from "../lib/say";
import { serverErrorWords } from "../lib/server-errors";
import { useTaskPatch } from "../lib/use-task-patch";

/** The task page's heading; "Rename" turns it into a field (Enter saves, Escape cancels). */
export function TaskTitle({ task }: { task: Task }) {
  const { t } = useTranslation();
  const ids = useId();
  const [editing, setEditing] = useState(false);
  const [value, setValue] = useState(task.title);
  const [blank, setBlank] = useState(false);
  const rename = useTaskPatch();

  if (!editing) {
    return (
      <div className="task-title">
        <h1 className="task-head__title" data-testid="task-title">
          {task.title}
        </h1>
        <button
          type="button"
          className="button button--ghost button--small"
          data-testid="rename-task"
          onClick={() => {
            setValue(task.title);
            setBlank(false);
            rename.reset();
            setEditing(true);
          }}
        >
          {t("task.rename.button")}
        </button>
      </div>
    );
  }

  function submit(e: FormEvent) {
    e.preventDefault();
    if (value.trim() === "") {
      setBlank(true);
      return;
    }
    rename.mutate({ id: task.id, body: { title: value } }, { onSuccess: () => setEditing(false) });
  }
  const fieldProblem = rename.error instanceof ApiRequestError ? rename.error.fieldProblems().find((p) => p.path === "title") : undefined;
  const words = blank
    ? { key: "validation.titleBlank" }
    : fieldProblem
      ? fieldProblemWords("title", fieldProblem)
      : rename.error
        ? serverErrorWords(rename.error)
        : null;

  return (
    <form className="task-title task-title--editing" onSubmit={submit} noValidate>
      <label htmlFor={`${ids}-title`} className="sr-only">
        {t("task.rename.label")}
      </label>
      <input
        id={`${ids}-title`}
        data-testid="rename-task-input"
        className="task-title__input"
        value={value}
        onChange={(e) => {
          setValue(e.target.value);
          setBlank(false);
        }}
        onKeyDown={(e) => {
          if (e.key === "Escape") setEditing(false);
        }}
        aria-invalid={words ? true : undefined}
        aria-describedby={words ? `${ids}-error` : undefined}
        // biome-ignore lint/a11y/noAutofocus: the operator just asked to edit this field.
        autoFocus
        autoComplete="off"
      />
      <button type="submit" className="button button--primary button--small" data-testid="rename-task-save" disabled={rename.isPending}>
        {rename.isPending ? t("common.saving") : t("task.rename.save")}
      </button>
      <button type="button" className="button button--ghost button--small" onClick={() => setEditing(false)}>
        {t("common.cancel")}
      </button>
      {words ? (
        <p className="field__error" id={`${ids}-error`} data-testid="rename-task-error">
          {say(t, words)}
        </p>
      ) : null}
    </form>
  );
}
