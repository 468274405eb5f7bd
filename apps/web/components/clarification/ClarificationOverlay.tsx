"use client";
import { useEffect, useId, useRef, useState, type KeyboardEvent } from "react";
import type { ClarificationAnswer } from "@kandev/protocol";
import { useTranslation } from "react-i18next";
import { api } from "../../lib/api";
import { buildAnswer, skipAnswer } from "../../lib/clarification/answer-model";
import { clearDraft, readDraft, restoreDraft, writeDraft } from "../../lib/clarification/draft-store";
import { browserDraftStorage } from "../../lib/clarification/browser-draft-storage";
import { keyCommand, movedIndex } from "../../lib/clarification/keyboard";
import { respondFailure, submitOutcome, type RetryReason, type SubmitOutcome } from "../../lib/clarification/outcome";
import {
  advance,
  collapse,
  currentQuestion,
  expand,
  goTo,
  initialOverlay,
  pickOption,
  typeText,
  type OverlayState,
  type Transition,
} from "../../lib/clarification/overlay-state";
import type { ClarificationView } from "../../lib/clarification/pending";
import { ClarificationActions } from "./ClarificationActions";
import { ClarificationCollapsed } from "./ClarificationCollapsed";
import { ClarificationHeader } from "./ClarificationHeader";
import { ClarificationQuestion } from "./ClarificationQuestion";
import { ClarificationStepper } from "./ClarificationStepper";

const OPTION_SELECTOR = "[data-option-index]";

/**
 * The answer overlay for one pending clarification. All decisions (what a pick or a key does, what
 * is sent, what an HTTP answer means) are pure functions in lib/clarification; this component holds
 * the state, moves focus and performs the request.
 */
export function ClarificationOverlay({
  clarification: c,
  waitingAfter,
  onSubmitStarted,
  onSubmitFinished,
}: {
  clarification: ClarificationView;
  waitingAfter: number;
  onSubmitStarted: (pendingId: string) => void;
  onSubmitFinished: (pendingId: string, outcome: SubmitOutcome) => void;
}) {
  const { t } = useTranslation();
  const ids = useId();
  const rootRef = useRef<HTMLElement>(null);
  // Read once, at mount, before the first paint: restoring later (in an effect) could overwrite
  // what the operator already typed. The overlay only renders in the browser (the transcript is
  // fetched there), so storage is there to read.
  const [state, setState] = useState<OverlayState>(() => {
    const storage = browserDraftStorage();
    const saved = storage ? readDraft(storage, c.pending_id) : null;
    return initialOverlay(c.source, c.questions, restoreDraft(c.source, c.questions, saved));
  });
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<{ reason: RetryReason; message: string } | null>(null);
  // Bumped when focus should follow a change (step, expand); 0 is the first showing.
  const [focusRequest, setFocusRequest] = useState(0);
  const question = currentQuestion(state);

  // update() bumps focusRequest whenever the step or the collapsed state changes, so it alone triggers.
  useEffect(() => {
    const root = rootRef.current;
    if (!root) return;
    const active = document.activeElement;
    // The first time, only take focus nobody else has: never steal it from a field in use.
    if (focusRequest === 0 && active && active !== document.body && !root.contains(active)) return;
    const target =
      root.querySelector<HTMLElement>(`${OPTION_SELECTOR}[tabindex="0"]`) ??
      root.querySelector<HTMLElement>("textarea") ??
      root.querySelector<HTMLElement>("[data-expand]");
    target?.focus({ preventScroll: focusRequest === 0 });
  }, [focusRequest]);

  // Every change of the draft (or of the question on screen) is kept for a return to the page.
  useEffect(() => {
    const storage = browserDraftStorage();
    if (storage) writeDraft(storage, c.pending_id, state.step, state.draft, Date.now());
  }, [c.pending_id, state.step, state.draft]);

  function update(next: OverlayState) {
    if (next.step !== state.step || next.collapsed !== state.collapsed) setFocusRequest((n) => n + 1);
    setState(next);
  }

  async function send(answer: ClarificationAnswer) {
    if (busy) return;
    setBusy(true);
    setError(null);
    onSubmitStarted(c.pending_id);
    let outcome: SubmitOutcome;
    try {
      const result = await api.respondClarification(c.pending_id, answer);
      outcome = submitOutcome({ ok: true, status: result.status });
    } catch (err) {
      outcome = submitOutcome(respondFailure(err));
    }
    if (outcome.kind === "retry") {
      setBusy(false);
      setError({ reason: outcome.reason, message: outcome.message });
    } else {
      // Sent (or settled already): nothing left to come back to.
      const storage = browserDraftStorage();
      if (storage) clearDraft(storage, c.pending_id);
    }
    onSubmitFinished(c.pending_id, outcome);
  }

  function run(tr: Transition) {
    update(tr.state);
    if (tr.submit) void send(buildAnswer([...tr.state.questions], tr.state.source, tr.state.draft));
  }

  function onKeyDown(e: KeyboardEvent<HTMLElement>) {
    const target = e.target as HTMLElement;
    const onOption = target.matches(OPTION_SELECTOR);
    const cmd = keyCommand({
      source: c.source,
      key: e.key,
      shiftKey: e.shiftKey,
      ctrlKey: e.ctrlKey,
      metaKey: e.metaKey,
      altKey: e.altKey,
      isComposing: e.nativeEvent.isComposing,
      inTextBox: target.tagName === "TEXTAREA" || target.tagName === "INPUT",
      onOption,
      onButton: !onOption && target.tagName === "BUTTON",
    });
    if (!cmd || state.collapsed) {
      if (cmd?.type === "collapse") e.preventDefault();
      return;
    }
    e.preventDefault();
    switch (cmd.type) {
      case "pick":
        if (!busy) run(pickOption(state, cmd.index));
        return;
      case "move": {
        const options = [...(rootRef.current?.querySelectorAll<HTMLElement>(OPTION_SELECTOR) ?? [])];
        const at = options.indexOf(target);
        options[movedIndex(at, cmd.delta, options.length)]?.focus();
        return;
      }
      case "advance":
        if (!busy) run(advance(state));
        return;
      case "collapse":
        update(collapse(state));
        return;
      default: {
        const unreachable: never = cmd;
        throw new Error(`unknown key command ${JSON.stringify(unreachable)}`);
      }
    }
  }

  const headingId = `${ids}-heading`;
  const message = c.content.trim();
  const showMessage = c.source === "elicitation" && message.length > 0 && !c.questions.some((q) => q.prompt.trim() === message);

  return (
    <section
      ref={rootRef}
      className={`clarification${state.collapsed ? " clarification--collapsed" : ""}`}
      data-testid="clarification-overlay"
      data-pending-id={c.pending_id}
      data-source={c.source}
      data-state={state.collapsed ? "collapsed" : "open"}
      aria-labelledby={headingId}
      aria-busy={busy}
      onKeyDown={onKeyDown}
    >
      {state.collapsed ? (
        <ClarificationCollapsed headingId={headingId} deadline={c.deadline} onExpand={() => update(expand(state))} />
      ) : (
        <>
          <ClarificationHeader
            headingId={headingId}
            count={c.questions.length}
            waitingAfter={waitingAfter}
            deadline={c.deadline}
            onCollapse={() => update(collapse(state))}
          />
          {showMessage ? <p className="clarification__message">{message}</p> : null}
          {c.questions.length > 1 ? <ClarificationStepper state={state} onGo={(step) => update(goTo(state, step))} /> : null}
          {question ? (
            <ClarificationQuestion
              key={question.id}
              source={c.source}
              question={question}
              draft={state.draft[question.id]}
              disabled={busy}
              onPick={(index) => run(pickOption(state, index))}
              onText={(text) => update(typeText(state, text))}
            />
          ) : null}
          {error ? (
            <p className="clarification__error" role="alert" data-testid="clarification-error" data-reason={error.reason}>
              {t(`clarification.errors.${error.reason}`, { message: error.message })}
            </p>
          ) : null}
          <ClarificationActions
            state={state}
            busy={busy}
            onBack={() => update(goTo(state, state.step - 1))}
            onNext={() => update(goTo(state, state.step + 1))}
            onSubmit={() => void send(buildAnswer([...state.questions], state.source, state.draft))}
            onSkip={() => void send(skipAnswer())}
          />
        </>
      )}
    </section>
  );
}
