import { Board } from "../components/Board";

export default function BoardPage() {
  return <Board />;
}
