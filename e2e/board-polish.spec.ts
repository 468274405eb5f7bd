import { expect, test } from "./fixtures";
import { createTaskViaApi, openBoard, saveScreenshot } from "./helpers";

// Issue 33, item 7: what a new user notices first. The tab has the board's icon, and a card shows
// a long title in at most three lines without widening its column.

test("the board serves its favicon (app/icon.svg) and every page links it", async ({ page }) => {
  await openBoard(page);
  const icon = page.locator('head link[rel="icon"][type="image/svg+xml"]');
  await expect(icon).toHaveCount(1);
  const href = await icon.getAttribute("href");
  expect(href).toMatch(/^\/icon\.svg/);
  const res = await page.request.get(href ?? "");
  expect(res.status()).toBe(200);
  expect(res.headers()["content-type"]).toContain("image/svg+xml");
  expect(await res.text()).toContain("<svg");
});

test("a long title is clamped to three lines on its card, whole in its tooltip; a long unbroken word wraps", async ({ page, agent }) => {
  const word = `src/${"very-deeply-nested-folder/".repeat(6)}file.ts`;
  const title = `Refactor ${word} ${"and then make every other part of the service consistent with it ".repeat(3).trim()}`;
  const { task } = await createTaskViaApi(page.request, { title, prompt: "/e2e:echo done", agent_profile_id: agent.profileId });
  await openBoard(page);
  const row = page.getByTestId(`task-row-${task.id}`);
  const text = row.getByTestId("task-card-title");
  await expect(text).toHaveText(title);
  await expect(text).toHaveAttribute("title", title);

  const box = await text.evaluate((el) => {
    const style = getComputedStyle(el);
    return {
      clamp: style.getPropertyValue("-webkit-line-clamp"),
      lineHeight: Number.parseFloat(style.lineHeight),
      height: el.getBoundingClientRect().height,
      clipped: el.scrollHeight > el.clientHeight,
    };
  });
  expect(box.clamp).toBe("3");
  expect(box.clipped).toBe(true);
  // Three lines at most (half a line of slack for rounding), and more than two: the clamp, not a cut.
  expect(box.height).toBeLessThanOrEqual(box.lineHeight * 3.5);
  expect(box.height).toBeGreaterThan(box.lineHeight * 2.5);

  // The unbroken word wraps inside the card: nothing sticks out of the card or its column.
  const fits = await row.evaluate((el) => {
    const card = el.getBoundingClientRect();
    const column = el.closest('[data-testid^="column-"]')?.getBoundingClientRect();
    return { cardFitsColumn: column ? card.right <= column.right + 0.5 : false, noOverflow: el.scrollWidth <= el.clientWidth };
  });
  expect(fits).toEqual({ cardFitsColumn: true, noOverflow: true });
  await saveScreenshot(row, "board-card-long-title");
});
