import { after, describe, test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { checkLocales, findLiterals, localeEntries } from "./i18n-check.mjs";

const script = fileURLToPath(new URL("./i18n-check.mjs", import.meta.url));
const dirs: string[] = [];

function tempTree(files: Record<string, string>): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "kandev-"));
  dirs.push(dir);
  for (const [name, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    fs.writeFileSync(path.join(dir, name), text);
  }
  return dir;
}

function run(dir: string) {
  return spawnSync(process.execPath, [script, dir], { encoding: "utf8", cwd: dir });
}

after(() => {
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});

const CLEAN = `
export function Ok({ t, n }: { t: (k: string) => string; n: number }) {
  return (
    <div title={t("a.title")} aria-label={t("a.label")} className="x" data-testid="ok">
      {t("a.body")} {n}
      <span aria-hidden="true">{"·"}</span>
      {" "}
      <input placeholder={t("a.placeholder")} type="text" />
      ( ) - : 42
    </div>
  );
}
`;

describe("i18n-check", () => {
  test("flags JSX text and each user-facing attribute, with file and line", () => {
    const dir = tempTree({
      "app/page.tsx": [
        "export default function P() {",
        "  return (",
        '    <main title="Board">',
        "      Hello there",
        '      <img alt="logo" src="/x.png" />',
        '      <input placeholder={"Type here"} />',
        "      <button aria-label='Close'>{\"Save\"}</button>",
        "    </main>",
        "  );",
        "}",
      ].join("\n"),
    });
    const res = run(dir);
    assert.equal(res.status, 1, res.stdout + res.stderr);
    for (const expected of [
      'app/page.tsx:3: attribute title literal "Board"',
      'app/page.tsx:4: text literal "Hello there"',
      'app/page.tsx:5: attribute alt literal "logo"',
      'app/page.tsx:6: attribute placeholder literal "Type here"',
      'app/page.tsx:7: attribute aria-label literal "Close"',
      'app/page.tsx:7: text literal "Save"',
    ]) {
      assert.ok(res.stderr.includes(expected), `missing ${expected} in:\n${res.stderr}`);
    }
  });

  test("passes clean code: expressions, whitespace, punctuation and non-copy attributes", () => {
    const dir = tempTree({ "components/Ok.tsx": CLEAN, "node_modules/x/Bad.tsx": "const x = <p>Ignored</p>;" });
    const res = run(dir);
    assert.equal(res.status, 0, res.stdout + res.stderr);
    assert.match(res.stdout, /1 file\(s\) clean/);
  });

  test("findLiterals reports nothing for template expressions and only letters count", () => {
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the input is source text containing a template literal, on purpose.
    assert.deepEqual(findLiterals("const a = <p>{`${x}`} ... 12 %</p>;"), []);
    assert.equal(findLiterals("const a = <p>Straße</p>;").length, 1);
  });
});

const EN = `
export const en = {
  common: { save: "Save", hello: "Hello {{name}}" },
  board: { taskCount_one: "{{count}} task", taskCount_other: "{{count}} tasks" },
} as const;
export type Resources = typeof en;
`;

function runLocales(dir: string) {
  return spawnSync(process.execPath, [script, "--locales", dir], { encoding: "utf8", cwd: dir });
}

describe("i18n-check locales", () => {
  test("a complete locale passes, plural keys following its own plural categories", () => {
    const dir = tempTree({
      "en.ts": EN,
      "de.ts": `import type { LocaleShape } from "./en";
export const de: LocaleShape = {
  common: { save: "Speichern", hello: "Hallo {{name}}" },
  board: { taskCount_one: "{{count}} Aufgabe", taskCount_other: "{{count}} Aufgaben" },
};`,
      // Polish has one/few/many/other: all four are needed, and that is complete.
      "pl.ts": `export const pl = {
  common: { save: "Zapisz", hello: "Cześć {{name}}" },
  board: { taskCount_one: "{{count}} zadanie", taskCount_few: "{{count}} zadania", taskCount_many: "{{count}} zadań", taskCount_other: "{{count}} zadania" },
};`,
      "index.ts": "export const RESOURCES = {};",
    });
    const res = runLocales(dir);
    assert.equal(res.status, 0, res.stdout + res.stderr);
    assert.match(res.stdout, /3 locale\(s\) complete/);
  });

  test("a missing key, an extra key, a lost placeholder and a non-string value each fail, naming the file and key", () => {
    const dir = tempTree({
      "en.ts": EN,
      "de.ts": `export const de = {
  common: { hello: "Hallo", bye: "Tschüss" },
  board: { taskCount_one: "{{count}} Aufgabe", taskCount_other: 42 },
};`,
      "pl.ts": `export const pl = {
  common: { save: "Zapisz", hello: "Cześć {{name}}" },
  board: { taskCount_one: "{{count}} zadanie", taskCount_other: "{{count}} zadania" },
};`,
    });
    const res = runLocales(dir);
    assert.equal(res.status, 1, res.stdout + res.stderr);
    for (const expected of [
      'de.ts: missing key "common.save"',
      'de.ts: extra key "common.bye" (not in en.ts)',
      'de.ts: "common.hello" has placeholders {}, en.ts has {name}',
      'de.ts: "board.taskCount_other" is not a string literal',
      'de.ts: missing key "board.taskCount_other"',
      'pl.ts: missing key "board.taskCount_few"',
      'pl.ts: missing key "board.taskCount_many"',
    ]) {
      assert.ok(res.stderr.includes(expected), `missing ${expected} in:\n${res.stderr}`);
    }
  });

  test("the shipped locales are complete (the same check npm run i18n:check runs)", () => {
    const root = fileURLToPath(new URL("..", import.meta.url));
    const { locales, problems } = checkLocales("apps/web/lib/locales", root);
    assert.deepEqual(problems, []);
    assert.ok(locales >= 2, "English plus at least one more locale");
  });

  test("localeEntries flattens nested keys, including quoted ones", () => {
    const { entries, problems } = localeEntries('export const x = { a: { "b-c": "B", d: `D` } } as const;');
    assert.deepEqual(
      [...entries],
      [
        ["a.b-c", "B"],
        ["a.d", "D"],
      ],
    );
    assert.deepEqual(problems, []);
    assert.deepEqual(localeEntries("const nothing = 1;").problems, ["no exported object literal"]);
  });
});
