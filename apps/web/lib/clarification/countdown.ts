/** "4:05" for the time left before an answer deadline; hours appear once there are any. */
export function formatCountdown(seconds: number): string {
  const s = Math.max(0, Math.floor(seconds));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const sec = String(s % 60).padStart(2, "0");
  return h > 0 ? `${h}:${String(m).padStart(2, "0")}:${sec}` : `${m}:${sec}`;
}

/** How urgent the deadline looks: under a minute is "urgent", under five "soon". */
export function deadlineUrgency(seconds: number): "calm" | "soon" | "urgent" {
  if (seconds < 60) return "urgent";
  if (seconds < 300) return "soon";
  return "calm";
}
