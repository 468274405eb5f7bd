// Lists that scale (issue 36 item 7): GET /tasks and GET /sessions/:id/messages take `limit` and
// `cursor`, answer an array, and give the next page's cursor in X-Next-Cursor; bad values are 400.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import type { Message, Task } from "@kandev/protocol";
import { api, createTask, getMessages, type JsonResponse, startTestServer, waitForTaskState } from "./helpers.js";

type Server = Awaited<ReturnType<typeof startTestServer>>;

/** Follows X-Next-Cursor from the first page to the last; returns the pages. */
async function allPages<T>(base: string, path: string, limit: number): Promise<T[][]> {
  const pages: T[][] = [];
  let cursor: string | null = null;
  for (;;) {
    const sep = path.includes("?") ? "&" : "?";
    const res: JsonResponse<T[]> = await api<T[]>(base, "GET", `${path}${sep}limit=${limit}${cursor === null ? "" : `&cursor=${cursor}`}`);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.ok(Array.isArray(res.body));
    pages.push(res.body);
    cursor = res.headers.get("x-next-cursor");
    if (cursor === null) return pages;
    assert.equal(res.body.length, limit, "only the last page is short");
  }
}

describe("paged lists", () => {
  let server: Server;
  let base: string;
  before(async () => {
    server = await startTestServer();
    base = server.url;
  });
  after(async () => {
    await server?.close();
  });

  test("GET /tasks in pages: newest first, every task once, the last page without X-Next-Cursor; a state filter pages too", async () => {
    const created: Task[] = [];
    for (let i = 0; i < 7; i++) created.push((await createTask(base, `/e2e:echo task ${i}`)).task);
    for (const t of created) await waitForTaskState(base, t.id, "REVIEW");
    const whole = (await api<Task[]>(base, "GET", "/api/v1/tasks")).body;
    assert.equal(whole.length, 7);
    const pages = await allPages<Task>(base, "/api/v1/tasks", 3);
    assert.deepEqual(
      pages.map((p) => p.length),
      [3, 3, 1],
    );
    assert.deepEqual(
      pages.flat().map((t) => t.id),
      whole.map((t) => t.id),
    );
    assert.deepEqual(
      whole.map((t) => t.id),
      created.map((t) => t.id).reverse(),
    );
    const exact = await api<Task[]>(base, "GET", "/api/v1/tasks?limit=7");
    assert.equal(exact.headers.get("x-next-cursor"), null, "no cursor when nothing is left");
    const review = await allPages<Task>(base, "/api/v1/tasks?state=REVIEW", 4);
    assert.equal(review.flat().length, 7);
  });

  test("GET /sessions/:id/messages in pages: the newest first page, each page oldest first, pages run back to the start", async () => {
    const { task, session } = await createTask(base, "/e2e:echo one");
    await waitForTaskState(base, task.id, "REVIEW");
    for (const word of ["two", "three"]) {
      assert.equal((await api(base, "POST", `/api/v1/sessions/${session.id}/prompt`, { text: `/e2e:echo ${word}` })).status, 202);
      await waitForTaskState(base, task.id, "REVIEW");
    }
    const whole = await getMessages(base, session.id);
    assert.ok(whole.length >= 6, `six messages or more, got ${whole.length}`);
    const pages = await allPages<Message>(base, `/api/v1/sessions/${session.id}/messages`, 4);
    assert.deepEqual(
      pages
        .reverse()
        .flat()
        .map((m) => m.id),
      whole.map((m) => m.id),
    );
    const newest = (await api<Message[]>(base, "GET", `/api/v1/sessions/${session.id}/messages?limit=2`)).body;
    assert.deepEqual(
      newest.map((m) => m.id),
      whole.slice(-2).map((m) => m.id),
    );
  });

  test("a bad limit or cursor is 400 BAD_REQUEST, on both lists", async () => {
    const { task, session } = await createTask(base, "/e2e:echo x");
    await waitForTaskState(base, task.id, "REVIEW");
    const taskCursor = (await api(base, "GET", "/api/v1/tasks?limit=1")).headers.get("x-next-cursor");
    assert.ok(taskCursor !== null);
    for (const path of ["/api/v1/tasks", `/api/v1/sessions/${session.id}/messages`]) {
      for (const query of ["limit=0", "limit=-3", "limit=abc", "limit=1001", "limit=2.5", "cursor=%%%", "cursor=abc"]) {
        const res = await api<{ error: { code: string } }>(base, "GET", `${path}?${query}`);
        assert.deepEqual([res.status, res.body.error.code], [400, "BAD_REQUEST"], `${path}?${query}`);
      }
    }
    const foreign = await api<{ error: { code: string } }>(base, "GET", `/api/v1/sessions/${session.id}/messages?cursor=${taskCursor}`);
    assert.equal(foreign.status, 400, "a task cursor is not a message cursor");
  });
});
