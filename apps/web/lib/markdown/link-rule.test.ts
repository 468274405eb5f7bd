import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { linkHref } from "./link-rule";

describe("linkHref: which URLs in agent Markdown become links", () => {
  test("absolute http, https and mailto URLs are links", () => {
    assert.equal(linkHref("https://example.com/a?b=1#c"), "https://example.com/a?b=1#c");
    assert.equal(linkHref("http://example.com"), "http://example.com/");
    assert.equal(linkHref("mailto:dev@example.com"), "mailto:dev@example.com");
    assert.equal(linkHref("HTTPS://Example.COM/Path"), "https://example.com/Path", "scheme and host case do not matter");
  });

  test("javascript:, data: and vbscript: URLs are not links, however they are spelled", () => {
    for (const url of [
      "javascript:alert(1)",
      "JavaScript:alert(1)",
      " javascript:alert(1)",
      "\u0001javascript:alert(1)",
      "java\tscript:alert(1)",
      "java\nscript:alert(1)",
      "data:text/html,<script>alert(1)</script>",
      "DATA:image/svg+xml;base64,PHN2Zz4=",
      "vbscript:msgbox(1)",
    ]) {
      assert.equal(linkHref(url), null, JSON.stringify(url));
    }
  });

  test("any other scheme is not a link", () => {
    for (const url of [
      "file:///etc/passwd",
      "ftp://example.com",
      "blob:https://example.com/x",
      "about:blank",
      "chrome://settings",
      "tel:123",
      "irc://x",
    ]) {
      assert.equal(linkHref(url), null, url);
    }
  });

  test("relative and protocol-relative URLs are not links: they would act on the board's own origin", () => {
    for (const url of ["/api/v1/tasks", "src/index.ts", "#section", "?q=1", "//evil.example/x", "", "   "]) {
      assert.equal(linkHref(url), null, JSON.stringify(url));
    }
  });
});
