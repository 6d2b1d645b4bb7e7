// Gamepad: A plays/pauses, D-pad left/right skips, up/down moves focus through the controls.

export function installGamepad(actions) {
  let frame = null;
  const previous = new Map();
  const poll = () => {
    for (const pad of navigator.getGamepads?.() ?? []) {
      if (!pad) continue;
      const before = previous.get(pad.index) ?? [];
      const pressed = pad.buttons.map((b) => b.pressed);
      const edge = (i) => pressed[i] && !before[i];
      if (edge(0)) actions.activate();
      if (edge(14)) actions.skipStep(-1);
      if (edge(15)) actions.skipStep(1);
      if (edge(12)) actions.focusStep(-1);
      if (edge(13)) actions.focusStep(1);
      if (pressed.some(Boolean)) actions.activity();
      previous.set(pad.index, pressed);
    }
    frame = requestAnimationFrame(poll);
  };
  window.addEventListener('gamepadconnected', () => { if (frame === null) poll(); });
  window.addEventListener('gamepaddisconnected', () => {
    if ((navigator.getGamepads?.() ?? []).every((p) => !p) && frame !== null) {
      cancelAnimationFrame(frame);
      frame = null;
    }
  });
}
