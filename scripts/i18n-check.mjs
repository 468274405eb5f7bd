#!/usr/bin/env node
// Fails when a .tsx file in the web app shows the operator a hard-coded string: JSX text with a
// letter in it, or a string literal in a user-facing attribute (placeholder, title, aria-label,
// alt). All copy goes through i18next (apps/web/lib/locales). Expressions, whitespace and
// punctuation-only text are allowed.
//
// It also fails when a locale is incomplete: every locale file in the locales folder must have
// exactly the keys of en.ts (plural keys per the locale's own plural categories) with the same
// {{placeholders}}, and nothing but strings as values.
//
// Usage: node scripts/i18n-check.mjs [--locales <dir>] [dir-or-file ...]
//   (no arguments: apps/web and apps/web/lib/locales)
import { readdirSync, readFileSync, statSync } from "node:fs";
import { basename, join, relative, resolve } from "node:path";
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
  const stringValue = (expr) => (expr && (ts.isStringLiteral(expr) || ts.isNoSubstitutionTemplateLiteral(expr)) ? expr.text : null);

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

const PLURAL_SUFFIX = /_(zero|one|two|few|many|other)$/;
const PLACEHOLDER = /\{\{\s*([\w.]+)\s*\}\}/g;

/**
 * Flattens the exported object literal of one locale source into `{key: value}` with dotted keys,
 * plus problems for values that are not plain strings.
 * @param {string} source
 * @param {string} fileName
 */
export function localeEntries(source, fileName = "locale.ts") {
  const sf = ts.createSourceFile(fileName, source, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  /** @type {Map<string, string>} */
  const entries = new Map();
  /** @type {string[]} */
  const problems = [];
  const unwrap = (e) => (e && (ts.isAsExpression(e) || ts.isSatisfiesExpression(e) || ts.isParenthesizedExpression(e)) ? unwrap(e.expression) : e);
  const walk = (obj, prefix) => {
    for (const prop of obj.properties) {
      if (!ts.isPropertyAssignment(prop)) {
        problems.push(`unsupported entry at "${prefix}" (only key: value)`);
        continue;
      }
      const name = ts.isIdentifier(prop.name) || ts.isStringLiteral(prop.name) ? prop.name.text : prop.name.getText(sf);
      const key = prefix ? `${prefix}.${name}` : name;
      const value = unwrap(prop.initializer);
      if (ts.isStringLiteral(value) || ts.isNoSubstitutionTemplateLiteral(value)) entries.set(key, value.text);
      else if (ts.isObjectLiteralExpression(value)) walk(value, key);
      else problems.push(`"${key}" is not a string literal`);
    }
  };
  let found = false;
  sf.forEachChild((node) => {
    if (!ts.isVariableStatement(node) || !node.modifiers?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword)) return;
    for (const decl of node.declarationList.declarations) {
      const init = unwrap(decl.initializer);
      if (init && ts.isObjectLiteralExpression(init)) {
        found = true;
        walk(init, "");
      }
    }
  });
  if (!found) problems.push("no exported object literal");
  return { entries, problems };
}

/** The keys a locale must have for one English key, given its plural categories. */
function expectedKeys(enKey, enKeys, categories) {
  const m = PLURAL_SUFFIX.exec(enKey);
  if (!m) return [enKey];
  const base = enKey.slice(0, -m[0].length);
  if (!enKeys.has(`${base}_other`)) return [enKey];
  return categories.map((c) => `${base}_${c}`);
}

const placeholders = (text) => [...new Set([...text.matchAll(PLACEHOLDER)].map((m) => m[1]))].sort().join(",");

/**
 * Compares every locale in `dir` with en.ts: missing keys, extra keys, non-string values and
 * different {{placeholders}}. Plural keys follow each locale's own plural categories (Intl).
 */
export function checkLocales(dir, cwd = process.cwd()) {
  const abs = resolve(cwd, dir);
  const files = readdirSync(abs)
    .filter((f) => f.endsWith(".ts") && !f.endsWith(".test.ts") && !f.endsWith(".d.ts") && f !== "index.ts")
    .sort();
  const problems = [];
  const rel = (f) => relative(cwd, join(abs, f));
  if (!files.includes("en.ts")) return { locales: files.length, problems: [`${relative(cwd, abs)}: no en.ts to compare with`] };
  const en = localeEntries(readFileSync(join(abs, "en.ts"), "utf8"), "en.ts");
  for (const p of en.problems) problems.push(`${rel("en.ts")}: ${p}`);
  const enKeys = new Set(en.entries.keys());
  for (const file of files) {
    if (file === "en.ts") continue;
    const lang = basename(file, ".ts");
    let categories;
    try {
      categories = new Intl.PluralRules(lang).resolvedOptions().pluralCategories;
    } catch {
      problems.push(`${rel(file)}: "${lang}" is not a language code`);
      continue;
    }
    const loc = localeEntries(readFileSync(join(abs, file), "utf8"), file);
    for (const p of loc.problems) problems.push(`${rel(file)}: ${p}`);
    const wanted = new Map(); // locale key -> English key it translates
    for (const k of enKeys) {
      // Plural forms are compared with the English "other" form (it carries every placeholder).
      const other = k.replace(PLURAL_SUFFIX, "_other");
      const reference = PLURAL_SUFFIX.test(k) && enKeys.has(other) ? other : k;
      for (const w of expectedKeys(k, enKeys, categories)) if (!wanted.has(w)) wanted.set(w, reference);
    }
    for (const [key, enKey] of wanted) {
      const value = loc.entries.get(key);
      if (value === undefined) {
        problems.push(`${rel(file)}: missing key "${key}"`);
        continue;
      }
      const enValue = en.entries.get(enKey) ?? "";
      if (placeholders(value) !== placeholders(enValue)) {
        problems.push(`${rel(file)}: "${key}" has placeholders {${placeholders(value)}}, en.ts has {${placeholders(enValue)}}`);
      }
    }
    for (const key of loc.entries.keys()) if (!wanted.has(key)) problems.push(`${rel(file)}: extra key "${key}" (not in en.ts)`);
  }
  return { locales: files.length, problems };
}

/** Splits CLI arguments into literal roots and the locales folder. */
function parseArgs(argv) {
  const roots = [];
  let locales = null;
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === "--locales") locales = argv[++i] ?? null;
    else roots.push(argv[i]);
  }
  if (roots.length === 0 && locales === null) return { roots: ["apps/web"], locales: "apps/web/lib/locales" };
  return { roots, locales };
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const args = parseArgs(process.argv.slice(2));
  let failed = false;
  if (args.roots.length > 0) {
    const { files, problems } = check(args.roots);
    if (problems.length > 0) {
      failed = true;
      console.error(problems.join("\n"));
      console.error(`\ni18n-check: ${problems.length} hard-coded string(s) in ${files} file(s); move them to apps/web/lib/locales.`);
    } else console.log(`i18n-check: ${files} file(s) clean`);
  }
  if (args.locales !== null) {
    const { locales, problems } = checkLocales(args.locales);
    if (problems.length > 0) {
      failed = true;
      console.error(problems.join("\n"));
      console.error(`\ni18n-check: ${problems.length} locale problem(s) in ${locales} locale(s).`);
    } else console.log(`i18n-check: ${locales} locale(s) complete`);
  }
  if (failed) process.exit(1);
}
