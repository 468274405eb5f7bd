import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { InterruptionCodeSchema, SessionFailureCodeSchema } from "@kandev/protocol";
import { de } from "./locales/de";
import { en } from "./locales/en";
import { failureWords, interruptionWords, resolveWords, statusWords, type NestedWords } from "./session-words";

/** A `t` over one locale object: looks the dotted key up and fills {{values}}; throws on a missing key. */
function tOf(locale: unknown) {
  return (key: string, values: Record<string, string | number> = {}) => {
    const text = key.split(".").reduce<unknown>((node, part) => (node as Record<string, unknown> | undefined)?.[part], locale);
    if (typeof text !== "string") throw new Error(`missing key ${key}`);
    return text.replace(/\{\{(\w+)\}\}/g, (_, name: string) => String(values[name] ?? `{{${name}}}`));
  };
}
const say = (words: NestedWords | null, locale: unknown = en) => (words === null ? null : resolveWords(tOf(locale), words));
const failure = (code: string, params: Record<string, string>) => ({ metadata: { reason: "english", failure: { code, params } } });

describe("failureWords", () => {
  test("a start failure is said from its code and values, in English and German", () => {
    const words = failureWords(failure("cwd_missing", { cwd: "/srv/app" }));
    assert.match(say(words)!, /working directory “\/srv\/app” does not exist/);
    assert.match(say(words, de)!, /Arbeitsverzeichnis des Agenten „\/srv\/app“ existiert nicht/);
    assert.equal(
      say(failureWords(failure("command_not_found", { command: "gemini", hint: "npm install -g @google/gemini-cli" }))),
      "The agent command “gemini” was not found. Install it: npm install -g @google/gemini-cli",
    );
    assert.match(say(failureWords(failure("command_not_executable", { command: "./a" })), de)!, /nicht ausführbar\. Prüfe den Befehl/);
  });

  test("an exit says the phase and how, with the agent's last words when there are some", () => {
    assert.equal(
      say(failureWords(failure("exited_during_start", { phase: "initialize", exit_code: "7", last: "no api key" }))),
      "The agent exited before answering ACP initialize (code 7): no api key",
    );
    assert.equal(say(failureWords(failure("exited", { signal: "SIGKILL" })), de), "Der Agent hat sich unerwartet beendet (Signal SIGKILL).");
    assert.equal(say(failureWords(failure("exited", { exit_code: "3" }))), "The agent exited unexpectedly (code 3).");
  });

  test("every failure code has words in every locale", () => {
    for (const code of SessionFailureCodeSchema.options) {
      const words = failureWords(failure(code, { cwd: "c", command: "x", detail: "d", phase: "session", exit_code: "1", seconds: "5" }));
      for (const locale of [en, de]) assert.doesNotMatch(say(words, locale)!, /\{\{/, code);
    }
  });

  test("a message without a known failure keeps the server's words", () => {
    assert.equal(failureWords({ metadata: { reason: "something new" } }), null);
    assert.equal(failureWords(failure("a_code_from_a_newer_board", {})), null);
  });
});

describe("statusWords and interruptionWords", () => {
  test("every interruption has a status note and a reason, in every locale", () => {
    for (const code of InterruptionCodeSchema.options) {
      for (const locale of [en, de]) {
        assert.ok(say(statusWords({ metadata: { interruption: code } }), locale), code);
        assert.ok(say(interruptionWords(code), locale), code);
      }
    }
    assert.equal(say(statusWords({ metadata: { interruption: "idle_timeout" } }), de), "Sitzung geschlossen: der Agent war untätig");
    assert.equal(interruptionWords(null), null);
  });

  test("resume notes, a cancelled start and a cancelled turn; anything else keeps the server's text", () => {
    assert.match(say(statusWords({ metadata: { resume: "new_session" } }), de)!, /ohne Erinnerung/);
    assert.match(say(statusWords({ metadata: { resume: "new_session", load_error: "nope" } }))!, /could not reload its earlier session \(nope\)/);
    assert.match(say(statusWords({ metadata: { resume: "session_load" } }))!, /reloaded its earlier session/);
    assert.equal(say(statusWords({ metadata: { note: "start_cancelled" } }), de), "Abgebrochen, bevor die Agent-Sitzung begann");
    assert.equal(say(statusWords({ metadata: { stop_reason: "cancelled" } }), de), "Runde abgebrochen");
    assert.equal(statusWords({ metadata: { stop_reason: "end_turn" } }), null);
  });

  test("a mode change says the mode and who changed it: the operator or the agent", () => {
    assert.equal(say(statusWords({ metadata: { mode_id: "plan", mode_name: "Plan", user: "local" } })), "Mode: Plan (set by local)");
    assert.equal(say(statusWords({ metadata: { mode_id: "plan", mode_name: "Plan", by: "agent" } }), de), "Modus: Plan (der Agent hat gewechselt)");
    assert.equal(say(statusWords({ metadata: { mode_id: "plan" } })), "Mode: plan");
  });
});
