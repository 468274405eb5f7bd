import { preload } from "react-dom";
import { Board } from "../components/Board";

export default function BoardPage() {
  // The board's list starts downloading with the page's scripts instead of after hydration; the
  // board's own request for it is then answered from this preload (same URL, mode and credentials).
  preload("/api/v1/tasks", { as: "fetch", crossOrigin: "anonymous" });
  return <Board />;
}
