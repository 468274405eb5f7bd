"use client";
import { useEffect, useId, useRef, useState, type FormEvent, type KeyboardEvent } from "react";
import { useMutation } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { api } from "../lib/api";
import { say } from "../lib/say";
import { serverErrorWords } from "../lib/server-errors";
import type { AvailableCommand } from "@kandev/protocol";
import { completeCommand, matchCommands, moveHighlight, slashQuery } from "../lib/slash-commands";
import { SlashCommandList } from "./session/SlashCommandList";

/**
 * The operator's reply box: Enter sends, Shift+Enter adds a line. While a turn runs what is sent
 * waits in the session's queue (QueuedPrompts) until the turn ends. Disabled once the session has
 * ended (the API would refuse the prompt with 409). Typing `/` offers the agent's slash commands
 * (`commands`): arrows move, Enter or Tab choose, Escape closes the list.
 */
export function PromptBox({
  sessionId,
  running,
  closed,
  commands = [],
}: {
  sessionId: string;
  running: boolean;
  closed: boolean;
  commands?: readonly AvailableCommand[];
}) {
  const { t } = useTranslation();
  const ids = useId();
  const [text, setText] = useState("");
  const [highlight, setHighlight] = useState(0);
  const [dismissed, setDismissed] = useState(false);
  const query = slashQuery(text);
  const matches = query !== null && !dismissed ? matchCommands(commands, query) : [];
  const listOpen = matches.length > 0;
  const active = Math.min(highlight, Math.max(0, matches.length - 1));
  function choose(command: AvailableCommand) {
    setText(completeCommand(command));
    setHighlight(0);
  }
  const send = useMutation({
    mutationFn: (value: string) => api.prompt(sessionId, value),
    onSuccess: () => setText(""),
  });
  const disabled = closed || send.isPending;
  const canSend = !disabled && text.trim().length > 0;
  const inputRef = useRef<HTMLTextAreaElement>(null);
  const refocus = useRef(false);

  // Disabling the textarea (while a prompt is being sent) drops its focus; give it back after.
  useEffect(() => {
    if (!disabled && refocus.current) {
      refocus.current = false;
      inputRef.current?.focus();
    }
  }, [disabled]);

  function submit(e?: FormEvent) {
    e?.preventDefault();
    if (!canSend) return;
    refocus.current = document.activeElement === inputRef.current;
    send.mutate(text);
  }
  function onKeyDown(e: KeyboardEvent<HTMLTextAreaElement>) {
    if (listOpen && !e.nativeEvent.isComposing) {
      if (e.key === "ArrowDown" || e.key === "ArrowUp") {
        e.preventDefault();
        setHighlight(moveHighlight(active, matches.length, e.key));
        return;
      }
      if ((e.key === "Enter" && !e.shiftKey) || e.key === "Tab") {
        e.preventDefault();
        choose(matches[active]!);
        return;
      }
      if (e.key === "Escape") {
        e.preventDefault();
        setDismissed(true);
        return;
      }
    }
    // Enter while an IME composes a character belongs to the IME, not to us.
    if (e.key === "Enter" && !e.shiftKey && !e.nativeEvent.isComposing) {
      e.preventDefault();
      submit();
    }
  }

  const placeholder = closed ? t("task.prompt.placeholderClosed") : running ? t("task.prompt.placeholderRunning") : t("task.prompt.placeholder");

  return (
    <form className="prompt-box" onSubmit={submit}>
      <label htmlFor={`${ids}-prompt`} className="sr-only">
        {t("task.prompt.label")}
      </label>
      <div className="prompt-box__row">
        <textarea
          ref={inputRef}
          id={`${ids}-prompt`}
          data-testid="prompt-input"
          className="prompt-box__input"
          value={text}
          onChange={(e) => {
            setText(e.target.value);
            setDismissed(false);
            setHighlight(0);
          }}
          onKeyDown={onKeyDown}
          placeholder={placeholder}
          rows={2}
          disabled={disabled}
          aria-describedby={`${ids}-hint`}
          aria-controls={listOpen ? `${ids}-commands` : undefined}
          aria-activedescendant={listOpen ? `${ids}-commands-${active}` : undefined}
        />
        <button type="submit" className="button button--primary prompt-box__send" data-testid="prompt-submit" disabled={!canSend}>
          <svg width="16" height="16" viewBox="0 0 16 16" aria-hidden="true" focusable="false">
            <path d="M3 8h9M8.5 4 12.5 8l-4 4" fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" strokeLinejoin="round" />
          </svg>
          <span>{t("task.prompt.send")}</span>
        </button>
      </div>
      {listOpen ? (
        <SlashCommandList id={`${ids}-commands`} label={t("task.slashCommands")} commands={matches} highlight={active} onChoose={choose} />
      ) : null}
      <p className="prompt-box__hint" id={`${ids}-hint`}>
        {running && !closed ? t("task.prompt.hintRunning") : t("task.prompt.hint")}
      </p>
      {send.isError ? (
        <p className="field__error" role="alert">
          {t("task.prompt.failed", { message: say(t, serverErrorWords(send.error)) })}
        </p>
      ) : null}
    </form>
  );
}
