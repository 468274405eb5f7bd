/** The question-mark badge shared by the overlay and its collapsed bar (decorative). */
export function QuestionGlyph() {
  return (
    <span className="clarification__glyph" aria-hidden="true">
      <svg width="18" height="18" viewBox="0 0 20 20" aria-hidden="true" focusable="false">
        <path d="M7.6 7.7a2.5 2.5 0 1 1 3.6 2.2c-.8.4-1.2.9-1.2 1.7v.4" fill="none" stroke="currentColor" strokeWidth="1.9" strokeLinecap="round" />
        <circle cx="10" cy="14.8" r="1.1" fill="currentColor" />
      </svg>
    </span>
  );
}
