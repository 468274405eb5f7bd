"use client";
import type { AvailableCommand } from "@kandev/protocol";

/**
 * The agent's commands matching what is typed after `/`, under the prompt box. Keyboard handling
 * stays in the textarea (PromptBox): arrows move `highlight`, Enter or Tab choose, Escape closes.
 */
export function SlashCommandList({
  id,
  label,
  commands,
  highlight,
  onChoose,
}: {
  id: string;
  label: string;
  commands: readonly AvailableCommand[];
  highlight: number;
  onChoose: (command: AvailableCommand) => void;
}) {
  return (
    <div className="slash-commands" id={id} role="listbox" aria-label={label} data-testid="slash-commands">
      {commands.map((c, i) => (
        <div
          key={c.name}
          tabIndex={-1}
          id={`${id}-${i}`}
          role="option"
          aria-selected={i === highlight}
          className="slash-commands__item"
          data-testid={`slash-command-${c.name}`}
          // mousedown, not click: the textarea keeps its focus.
          onMouseDown={(e) => {
            e.preventDefault();
            onChoose(c);
          }}
        >
          <span className="slash-commands__name">/{c.name}</span>
          {c.input_hint !== undefined ? <span className="slash-commands__hint">{c.input_hint}</span> : null}
          <span className="slash-commands__description">{c.description}</span>
        </div>
      ))}
    </div>
  );
}
