import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import type { Message } from "@kandev/protocol";
import { browserDraftStorage } from "./browser-draft-storage";
import { clearDraft, pruneDrafts } from "./draft-store";
import type { SubmitOutcome } from "./outcome";
import { pendingClarifications, settledClarificationIds, settledElsewhere, type ClarificationView, type NoticeKind } from "./pending";

export interface Notice {
  id: number;
  pendingId: string;
  kind: NoticeKind;
}

const MAX_NOTICES = 3;

/**
 * The task page's clarification queue over the live transcript: the question on screen (the
 * oldest open one), how many wait behind it, and the notices for questions that went away without
 * the operator's answer. A question the operator submits is tracked from the moment they press
 * Submit, because agentctl settles it (and the transcript says so) before the HTTP answer comes.
 */
export function useClarificationQueue(messages: readonly Message[]) {
  const pending = useMemo(() => pendingClarifications(messages), [messages]);
  const [closed, setClosed] = useState<ReadonlySet<string>>(() => new Set());
  const [notices, setNotices] = useState<Notice[]>([]);
  const shown = useRef(new Set<string>());
  const submitting = useRef(new Set<string>());
  const nextNoticeId = useRef(1);
  // The transcript as of now, for callbacks that finish after later updates arrived.
  const latest = useRef(messages);
  useEffect(() => {
    latest.current = messages;
  }, [messages]);

  const open = useMemo(() => pending.filter((c) => !closed.has(c.pending_id)), [pending, closed]);
  const current: ClarificationView | undefined = open[0];

  const addNotice = useCallback((pendingId: string, kind: NoticeKind) => {
    const id = nextNoticeId.current++;
    setNotices((list) => [...list.filter((n) => n.pendingId !== pendingId), { id, pendingId, kind }].slice(-MAX_NOTICES));
  }, []);

  useEffect(() => {
    if (current) shown.current.add(current.pending_id);
  }, [current]);

  // A settled clarification's draft can never be sent: drop it, whoever settled it and whenever
  // (also while this page was closed). Drafts nobody came back to age out.
  useEffect(() => {
    const storage = browserDraftStorage();
    if (storage) pruneDrafts(storage, Date.now());
  }, []);
  useEffect(() => {
    const storage = browserDraftStorage();
    if (!storage) return;
    for (const id of settledClarificationIds(messages)) clearDraft(storage, id);
  }, [messages]);

  // A question on screen that settled without us: close it and say why.
  useEffect(() => {
    for (const s of settledElsewhere(shown.current, messages, submitting.current)) {
      shown.current.delete(s.pendingId);
      addNotice(s.pendingId, s.kind);
    }
  }, [messages, addNotice]);

  const submitStarted = useCallback((pendingId: string) => {
    submitting.current.add(pendingId);
  }, []);

  const submitFinished = useCallback(
    (pendingId: string, outcome: SubmitOutcome) => {
      submitting.current.delete(pendingId);
      if (outcome.kind === "retry") {
        // Still open: if it settled meanwhile, the transcript decides on the next render.
        const settled = settledElsewhere(shown.current, latest.current, submitting.current).find((s) => s.pendingId === pendingId);
        if (settled) {
          shown.current.delete(pendingId);
          addNotice(pendingId, settled.kind);
        }
        return;
      }
      shown.current.delete(pendingId);
      setClosed((prev) => new Set(prev).add(pendingId));
      if (outcome.kind === "closed") addNotice(pendingId, outcome.notice);
    },
    [addNotice],
  );

  const dismissNotice = useCallback((id: number) => setNotices((list) => list.filter((n) => n.id !== id)), []);

  return { current, waitingAfter: Math.max(0, open.length - 1), notices, submitStarted, submitFinished, dismissNotice };
}
