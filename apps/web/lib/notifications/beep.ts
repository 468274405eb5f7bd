// A short two-note chime made with WebAudio, so no sound file is shipped or downloaded.

let context: AudioContext | null = null;

export function beep(): void {
  try {
    if (typeof window === "undefined" || typeof window.AudioContext === "undefined") return;
    context ??= new window.AudioContext();
    const ctx = context;
    // Browsers keep a context suspended until the page has seen a user gesture; try anyway.
    void ctx.resume().catch(() => undefined);
    const start = ctx.currentTime + 0.01;
    for (const [i, freq] of [660, 880].entries()) {
      const at = start + i * 0.12;
      const osc = ctx.createOscillator();
      const gain = ctx.createGain();
      osc.type = "sine";
      osc.frequency.value = freq;
      gain.gain.setValueAtTime(0.0001, at);
      gain.gain.exponentialRampToValueAtTime(0.12, at + 0.015);
      gain.gain.exponentialRampToValueAtTime(0.0001, at + 0.18);
      osc.connect(gain).connect(ctx.destination);
      osc.start(at);
      osc.stop(at + 0.2);
    }
  } catch {
    // Sound is a nicety; never let it break a notification.
  }
}
