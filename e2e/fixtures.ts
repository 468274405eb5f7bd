import { test as base, expect } from "@playwright/test";

/**
 * Every spec's `page` fails its test on an uncaught page error or a console error (hydration
 * mismatches, React warnings). Failed HTTP responses are exempt: specs provoke 4xx on purpose and
 * Chromium logs each one as a console error.
 */
export const test = base.extend<{ failOnPageErrors: void }>({
  failOnPageErrors: [
    async ({ context }, use) => {
      const problems: string[] = [];
      const watch = (page: import("@playwright/test").Page) => {
        page.on("pageerror", (err) => problems.push(`${page.url()}: uncaught ${err.message}`));
        page.on("console", (msg) => {
          if (msg.type() === "error" && !msg.text().startsWith("Failed to load resource")) {
            problems.push(`${page.url()}: console.error ${msg.text()}`);
          }
        });
      };
      context.pages().forEach(watch);
      context.on("page", watch);
      await use();
      expect(problems, problems.join("\n")).toEqual([]);
    },
    { auto: true },
  ],
});

export { expect };
