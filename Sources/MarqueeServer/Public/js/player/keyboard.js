// The keyboard map: Space/K play-pause, J/L and ←/→ ±10 s, ↑/↓ volume, M mute, F full screen,
// C subtitles, I info, < / > speed, 0–9 jump to a tenth, ? help, Esc closes overlays.

//
// Space plays and pauses wherever focus was left by a click: a button keeps focus after it is
// clicked, and Space must not press it again (re-open the speed menu, toggle subtitles). Only
// when a person moved focus with the keyboard (Tab, or arrows in a menu) does Space press the
// focused button or move the focused slider, as it should for keyboard users.

const NAVIGATION_KEYS = new Set(['Tab', 'ArrowUp', 'ArrowDown', 'ArrowLeft', 'ArrowRight', 'Home', 'End', 'PageUp', 'PageDown']);
const SLIDER_KEYS = new Set(['ArrowUp', 'ArrowDown', 'ArrowLeft', 'ArrowRight', 'Home', 'End', 'PageUp', 'PageDown']);
let focusedByKeyboard = false;

/** Focus was moved by keys or a gamepad, not by a pointer. */
export function noteKeyboardFocus() { focusedByKeyboard = true; }

export function installKeyboard(actions) {
  document.addEventListener('pointerdown', () => { focusedByKeyboard = false; }, true);
  document.addEventListener('keydown', (event) => {
    if (event.key === 'Tab' || (NAVIGATION_KEYS.has(event.key) && event.target?.closest?.('[role="menu"]'))) focusedByKeyboard = true;
  }, true);
  document.addEventListener('keydown', (event) => {
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    const target = event.target;
    if (target instanceof HTMLTextAreaElement) return;
    if (target instanceof HTMLInputElement) {
      // A range (the volume slider) takes its own keys once reached with the keyboard.
      if (target.type !== 'range' || (focusedByKeyboard && SLIDER_KEYS.has(event.key))) return;
    }
    const onButton = target instanceof HTMLButtonElement || target instanceof HTMLAnchorElement;
    const onSlider = target?.getAttribute?.('role') === 'slider';
    let handled = true;
    switch (event.key) {
      case ' ':
        if (onButton && focusedByKeyboard) { handled = false; break; }
        actions.togglePlay(); break;
      case 'k': case 'K': actions.togglePlay(); break;
      case 'j': case 'J': actions.skipStep(-1); break;
      case 'l': case 'L': actions.skipStep(1); break;
      case 'ArrowLeft': actions.skipStep(-1); break;
      case 'ArrowRight': actions.skipStep(1); break;
      case 'ArrowUp': if (onSlider || !onButton || !focusedByKeyboard) actions.volume(0.1); else handled = false; break;
      case 'ArrowDown': if (onSlider || !onButton || !focusedByKeyboard) actions.volume(-0.1); else handled = false; break;
      case 'm': case 'M': actions.mute(); break;
      case 'f': case 'F': actions.fullscreen(); break;
      case 'c': case 'C': actions.captions(); break;
      case 'i': case 'I': actions.info(); break;
      case '<': case ',': actions.speed(-1); break;
      case '>': case '.': actions.speed(1); break;
      case '?': actions.help(); break;
      case 'Escape': handled = actions.escape(); break;
      default:
        if (/^[0-9]$/.test(event.key)) actions.jump(Number(event.key) / 10);
        else handled = false;
    }
    if (handled) {
      event.preventDefault();
      actions.activity();
    }
  });
}
