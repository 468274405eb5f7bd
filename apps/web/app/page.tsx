import { preload } from "react-dom";
import { Board } from "../components/Board";
import { FIRST_TASKS_PAGE_URL } from "../lib/api";

export default function BoardPage() {
  // The board's first page starts downloading with the page's scripts instead of after hydration;
  // the board's own request for it is then answered from this preload (same URL, mode and
  // credentials). It must be the very URL useTasks asks for: a preload of anything else is a
  // wasted download (the whole list of 10,000 tasks, before paging, cost about a second).
  preload(FIRST_TASKS_PAGE_URL, { as: "fetch", crossOrigin: "anonymous" });
  return <Board />;
}
