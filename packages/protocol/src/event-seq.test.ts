import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { eventId, eventSeq } from "./event-seq.js";

describe("agent-stream event numbers", () => {
  test("round trip, and anything that is not an event id is null", () => {
    assert.equal(eventId(7), "e-7");
    assert.equal(eventSeq(eventId(123456)), 123456);
    for (const id of [undefined, "b-1", "e-", "e-0", "e--3", "e-1.5", "e-x", "agentctl-4", `e-${2 ** 60}`]) assert.equal(eventSeq(id), null, String(id));
  });
});
