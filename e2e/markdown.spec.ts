import { expect, test } from "./fixtures";
import { createTaskViaApi, openTask, saveScreenshot } from "./helpers";

// What the mock agent echoes back: GitHub-flavoured Markdown with hostile parts in it.
const reply = [
  "Intro with a [safe link](https://example.com/docs), a [script link](javascript:alert(1)),",
  "a [data link](data:text/html;base64,PHNjcmlwdD5hbGVydCgzKTwvc2NyaXB0Pg==) and a [relative link](/api/v1/tasks).",
  "",
  "| name | value |",
  "|---|---:|",
  "| width | 42 |",
  "",
  "- [x] read the code",
  "- [ ] write the test",
  "",
  "```ts",
  "const answer: number = 42;",
  "```",
  "",
  'Inline <img src=x onerror="window.__kandevXss=1"> stays text.',
  "",
  "<script>window.__kandevXss=2</script>",
  "",
  "![tracker](https://example.com/pixel.png)",
].join("\n");

test("agent Markdown renders tables, task lists, highlighted code and safe links, and hostile parts inert", async ({ page }) => {
  const { task } = await createTaskViaApi(page.request, { title: "Markdown reply", prompt: `/e2e:echo ${reply}` });
  await openTask(page, task.id);
  await expect(page.getByTestId("task-page").getByTestId("task-state-turn-finished").first()).toBeVisible();
  const agent = page.getByTestId("message-list").locator('[data-author="agent"][data-type="text"]').last();

  // A GitHub table.
  await expect(agent.locator("table")).toHaveCount(1);
  await expect(agent.locator("table th")).toHaveText(["name", "value"]);
  await expect(agent.locator("table td")).toHaveText(["width", "42"]);

  // A task list: checkboxes that show the agent's state and cannot be changed.
  const boxes = agent.locator('li input[type="checkbox"]');
  await expect(boxes).toHaveCount(2);
  await expect(boxes.nth(0)).toBeChecked();
  await expect(boxes.nth(1)).not.toBeChecked();
  await expect(boxes.nth(0)).toBeDisabled();
  await expect(boxes.nth(1)).toBeDisabled();

  // A closed fence is highlighted: its keyword is a token span.
  const code = agent.locator('pre[data-language="ts"] code');
  await expect(code).toHaveText("const answer: number = 42;");
  await expect(code.locator(".hljs-keyword").first()).toHaveText("const");

  // The safe link opens in a new tab with no opener and no referrer; the image is never loaded
  // (a remote image is a beacon) but offered as such a link.
  await expect(agent.locator("a")).toHaveCount(2);
  const image = agent.getByRole("link", { name: "Image: tracker" });
  await expect(image).toHaveAttribute("href", "https://example.com/pixel.png");
  await expect(image).toHaveAttribute("rel", "noopener noreferrer nofollow");
  const safe = agent.getByRole("link", { name: "safe link" });
  await expect(safe).toHaveAttribute("href", "https://example.com/docs");
  await expect(safe).toHaveAttribute("target", "_blank");
  await expect(safe).toHaveAttribute("rel", "noopener noreferrer nofollow");

  // javascript:, data: and relative links are their text only; clicking one does nothing.
  for (const name of ["script link", "data link", "relative link"]) await expect(agent.getByText(name, { exact: true })).toBeVisible();
  await expect(agent.locator('[href^="javascript"], [href^="data"], [src]')).toHaveCount(0);
  await agent.getByText("script link", { exact: true }).click();

  // Raw HTML is shown as the characters the agent sent, never as elements; no image is loaded.
  await expect(agent).toContainText('<img src=x onerror="window.__kandevXss=1">');
  await expect(agent).toContainText("<script>window.__kandevXss=2</script>");
  await expect(agent.locator("img, script")).toHaveCount(0);
  expect(await page.evaluate(() => (window as unknown as { __kandevXss?: number }).__kandevXss)).toBeUndefined();
  await saveScreenshot(agent, "markdown-reply");
  // The fixture fails the test on any dialog: alert() never ran.
});

test("what the operator typed stays plain text, Markdown and all", async ({ page }) => {
  const { task } = await createTaskViaApi(page.request, { title: "Plain prompt", prompt: `/e2e:echo ${reply}` });
  await openTask(page, task.id);
  const user = page.getByTestId("message-list").locator('[data-author="user"][data-type="text"]').first();
  await expect(user).toContainText("| name | value |");
  await expect(user).toContainText("[safe link](https://example.com/docs)");
  await expect(user.locator("table, a, input, pre")).toHaveCount(0);
});
