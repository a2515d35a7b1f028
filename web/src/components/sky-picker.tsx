import type { SkyTemplate } from '../../../src/client/records.js';

/** The sky templates as a group of radio buttons with their previews. */
export function SkyPicker({ templates, value, onChange }: { templates: SkyTemplate[]; value: number | null; onChange(id: number): void }) {
  return (
    <fieldset class="sky-picker">
      <legend>Sky template</legend>
      <div class="sky-grid">
        {templates.map((t) => (
          <label key={t.id} class={`sky-option${value === t.id ? ' is-selected' : ''}`}>
            <input type="radio" name="sky-template" value={t.id} checked={value === t.id} onChange={() => onChange(t.id)} />
            <img src={t.preview_link} alt="" />
            <span>
              {t.name}
              {t.is_default && <small> (default)</small>}
            </span>
          </label>
        ))}
      </div>
    </fieldset>
  );
}
