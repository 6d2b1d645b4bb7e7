// Numbers that change roll to their new value (a numeric transition), never for longer than
// 2 seconds, and not at all when the person asked for reduced motion.
const reduced = () => window.matchMedia('(prefers-reduced-motion: reduce)').matches;
export const TRANSITION_MS = 500;
const running = new WeakMap();

/**
 * Shows `text` in `element`. When both the old and the new text hold one number, the number
 * counts from the old value to the new one over TRANSITION_MS; `data-value` always holds the
 * final text at once.
 */
export function setCounter(element, text) {
  if (element.dataset.value === text) return;
  const previous = element.dataset.value;
  element.dataset.value = text;
  const from = numberIn(previous), to = numberIn(text);
  cancelAnimationFrame(running.get(element) ?? 0);
  if (reduced() || from === null || to === null || from.template !== to.template || from.value === to.value) {
    element.textContent = text;
    return;
  }
  const start = performance.now();
  const step = (time) => {
    const f = Math.min(1, (time - start) / TRANSITION_MS);
    const eased = 1 - (1 - f) ** 3;
    const shown = f < 1 ? to.template.replace('#', String(Math.round(from.value + (to.value - from.value) * eased))) : text;
    if (element.textContent !== shown) element.textContent = shown;
    if (f < 1) running.set(element, requestAnimationFrame(step));
  };
  running.set(element, requestAnimationFrame(step));
}

function numberIn(text) {
  if (text == null) return null;
  const match = /^(\D*)(\d+)(\D*)$/.exec(text);
  return match ? { value: Number(match[2]), template: `${match[1]}#${match[3]}` } : null;
}
