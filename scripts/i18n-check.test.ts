import { after, describe, test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { findLiterals } from "./i18n-check.mjs";

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
        '      <button aria-label=\'Close\'>{"Save"}</button>',
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
    assert.deepEqual(findLiterals("const a = <p>{`${x}`} ... 12 %</p>;"), []);
    assert.equal(findLiterals("const a = <p>Straße</p>;").length, 1);
  });
});
