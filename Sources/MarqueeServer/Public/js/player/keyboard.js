// The keyboard map: Space/K play-pause, J/L and ←/→ ±10 s, ↑/↓ volume, M mute, F full screen,
// C subtitles, I info, < / > speed, 0–9 jump to a tenth, ? help, Esc closes overlays.

export function installKeyboard(actions) {
  document.addEventListener('keydown', (event) => {
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    const target = event.target;
    if (target instanceof HTMLInputElement || target instanceof HTMLTextAreaElement) return;
    const onButton = target instanceof HTMLButtonElement || target instanceof HTMLAnchorElement;
    const onSlider = target?.getAttribute?.('role') === 'slider';
    let handled = true;
    switch (event.key) {
      case ' ':
        if (onButton) { handled = false; break; }
        actions.togglePlay(); break;
      case 'k': case 'K': actions.togglePlay(); break;
      case 'j': case 'J': actions.skip(-10); break;
      case 'l': case 'L': actions.skip(10); break;
      case 'ArrowLeft': actions.skip(-10); break;
      case 'ArrowRight': actions.skip(10); break;
      case 'ArrowUp': if (onSlider || !onButton) actions.volume(0.1); else handled = false; break;
      case 'ArrowDown': if (onSlider || !onButton) actions.volume(-0.1); else handled = false; break;
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
