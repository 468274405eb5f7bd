"use client";
import { useTranslation } from "react-i18next";
import { useLoadOnView } from "../lib/use-load-on-view";

/**
 * The end of the board's loaded tasks: older ones load when the operator scrolls here, or with the
 * button (for keyboards, and when the end is in sight already).
 */
export function LoadMoreTasks({ loading, onLoad }: { loading: boolean; onLoad: () => void }) {
  const { t } = useTranslation();
  const ref = useLoadOnView<HTMLDivElement>(onLoad);
  return (
    <div className="board__more" ref={ref} data-testid="board-more">
      <button type="button" className="button button--ghost" data-testid="load-more-tasks" disabled={loading} onClick={onLoad}>
        {loading ? t("board.paging.loading") : t("board.paging.loadMore")}
      </button>
    </div>
  );
}
