import type { TargetedPointerEvent } from 'preact';
import { useRef, useState } from 'preact/hooks';

/**
 * Before and after in one frame: the before image over the after one, cut at a divider
 * the user drags (or moves with the slider and its arrow keys). `actual` shows the
 * image's pixels one to one on the screen (100 %), in a scrolling frame.
 */
export function Compare(props: { before: string | null; after: string; beforeLabel?: string; afterLabel?: string; alt: string; actual?: boolean }) {
  const { before, after, beforeLabel = 'Before', afterLabel = 'After', alt, actual = false } = props;
  const [split, setSplit] = useState(50);
  const [natural, setNatural] = useState<{ w: number; h: number } | null>(null);
  const frame = useRef<HTMLDivElement>(null);

  const follow = (e: TargetedPointerEvent<HTMLDivElement>) => {
    if (!before || (e.type === 'pointermove' && e.buttons !== 1)) return;
    const box = frame.current!.getBoundingClientRect();
    setSplit(Math.min(100, Math.max(0, ((e.clientX - box.left) / box.width) * 100)));
  };
  // One image pixel per device pixel.
  const size = actual && natural ? { width: `${natural.w / devicePixelRatio}px`, height: `${natural.h / devicePixelRatio}px` } : undefined;

  return (
    <div class={`compare${actual ? ' compare-actual' : ''}`}>
      <div class="compare-scroll">
        <div class="compare-frame" ref={frame} onPointerDown={follow} onPointerMove={follow}>
          <img class="compare-after" style={size} src={after} alt={alt} draggable={false} onLoad={(e) => setNatural({ w: e.currentTarget.naturalWidth, h: e.currentTarget.naturalHeight })} />
          {before && (
            <>
              <img class="compare-before" src={before} alt="" draggable={false} style={{ clipPath: `inset(0 ${100 - split}% 0 0)` }} />
              <div class="compare-divider" style={{ left: `${split}%` }} aria-hidden="true" />
              <span class="compare-label compare-label-before">{beforeLabel}</span>
              <span class="compare-label compare-label-after">{afterLabel}</span>
            </>
          )}
        </div>
      </div>
      {before && (
        <label class="compare-slider">
          <span class="visually-hidden">
            Divider between {beforeLabel.toLowerCase()} and {afterLabel.toLowerCase()}
          </span>
          <input type="range" min={0} max={100} step={1} value={split} onInput={(e) => setSplit(Number(e.currentTarget.value))} />
        </label>
      )}
    </div>
  );
}
