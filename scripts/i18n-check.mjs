#!/usr/bin/env node
// Fails when a .tsx file in the web app shows the operator a hard-coded string: JSX text with a
// letter in it, or a string literal in a user-facing attribute (placeholder, title, aria-label,
// alt). All copy goes through i18next (apps/web/lib/locales). Expressions, whitespace and
// punctuation-only text are allowed.
//
// Usage: node scripts/i18n-check.mjs [dir-or-file ...]   (default: apps/web)
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";

const USER_FACING_ATTRIBUTES = new Set(["placeholder", "title", "aria-label", "alt"]);
const SKIP_DIRS = new Set(["node_modules", ".next", "dist", ".turbo"]);
const HAS_LETTER = /\p{L}/u;

/**
 * Lists every literal in one .tsx source as `{line, text, kind}` (line is 1-based).
 * @param {string} source
 * @param {string} fileName
 */
export function findLiterals(source, fileName = "file.tsx") {
  const sf = ts.createSourceFile(fileName, source, ts.ScriptTarget.Latest, true, ts.ScriptKind.TSX);
  /** @type {{line: number, text: string, kind: string}[]} */
  const found = [];
  const report = (node, text, kind) => {
    const { line } = sf.getLineAndCharacterOfPosition(node.getStart(sf));
    found.push({ line: line + 1, text: text.trim().replace(/\s+/g, " "), kind });
  };
  const stringValue = (expr) =>
    expr && (ts.isStringLiteral(expr) || ts.isNoSubstitutionTemplateLiteral(expr)) ? expr.text : null;

  const visit = (node) => {
    if (ts.isJsxText(node)) {
      if (HAS_LETTER.test(node.text)) report(node, node.text, "text");
    } else if (ts.isJsxExpression(node) && node.parent && (ts.isJsxElement(node.parent) || ts.isJsxFragment(node.parent))) {
      // `{"Save"}` as a child is a literal in disguise.
      const value = stringValue(node.expression);
      if (value !== null && HAS_LETTER.test(value)) report(node, value, "text");
    } else if (ts.isJsxAttribute(node)) {
      const name = node.name.getText(sf);
      if (USER_FACING_ATTRIBUTES.has(name) && node.initializer) {
        const init = node.initializer;
        const value = ts.isStringLiteral(init) ? init.text : ts.isJsxExpression(init) ? stringValue(init.expression) : null;
        if (value !== null && HAS_LETTER.test(value)) report(node, value, `attribute ${name}`);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return found;
}

/** @param {string} path @param {string[]} out */
function collect(path, out) {
  const stat = statSync(path);
  if (stat.isFile()) {
    if (path.endsWith(".tsx")) out.push(path);
    return out;
  }
  for (const name of readdirSync(path)) {
    if (SKIP_DIRS.has(name)) continue;
    collect(join(path, name), out);
  }
  return out;
}

/** Checks the given roots; returns the problems as `file:line: message` lines. */
export function check(roots, cwd = process.cwd()) {
  const files = roots.flatMap((r) => collect(resolve(cwd, r), [])).sort();
  const problems = [];
  for (const file of files) {
    for (const hit of findLiterals(readFileSync(file, "utf8"), file)) {
      problems.push(`${relative(cwd, file)}:${hit.line}: ${hit.kind} literal "${hit.text}" (use t("..."))`);
    }
  }
  return { files: files.length, problems };
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const roots = process.argv.slice(2);
  const { files, problems } = check(roots.length > 0 ? roots : ["apps/web"]);
  if (problems.length > 0) {
    console.error(problems.join("\n"));
    console.error(`\ni18n-check: ${problems.length} hard-coded string(s) in ${files} file(s); move them to apps/web/lib/locales.`);
    process.exit(1);
  }
  console.log(`i18n-check: ${files} file(s) clean`);
}
