// Controls fade out during playback and come back on pointer movement, touch or focus;
// they stay while paused, while a menu or panel is open, while the mouse pointer rests on a
// control, and while scrubbing (which hides everything but the timeline).
//
// Whether the pointer rests on a control is asked when the idle timer runs out, at the last
// place the mouse was: a pointer that moved onto the hidden timeline brought the controls back
// under itself without another move, so the control under it was never a move's target.

const CONTROL = '.chrome button, .chrome a, .chrome input, .chrome [role="slider"], .volume, .menu, .info-panel';

const IDLE_MS = 3000;

export class ControlsVisibility {
  constructor(player, { isPlaying, isBusy }) {
    this.player = player;
    this.isPlaying = isPlaying;
    this.isBusy = isBusy;
    this.timer = null;
    this.mouse = null; // {x, y} where the mouse last moved over the player; null once it left
    player.addEventListener('pointermove', (event) => {
      if (event.pointerType !== 'mouse') return;
      this.mouse = { x: event.clientX, y: event.clientY };
      this.activity();
    });
    player.addEventListener('pointerleave', (event) => { if (event.pointerType === 'mouse') this.mouse = null; });
    player.addEventListener('focusin', () => this.activity());
  }

  /** Whether the mouse rests on a control (a button, the timeline, the volume, a menu). */
  get pointerOnControl() {
    if (!this.mouse) return false;
    const under = this.player.ownerDocument.elementFromPoint(this.mouse.x, this.mouse.y);
    return Boolean(under?.closest?.(CONTROL));
  }

  get visible() { return !this.player.classList.contains('controls-hidden'); }

  show() {
    this.player.classList.remove('controls-hidden');
    this.player.classList.add('controls-visible');
  }

  hide() {
    if (this.isBusy()) return;
    this.player.classList.add('controls-hidden');
    this.player.classList.remove('controls-visible');
    clearTimeout(this.timer);
  }

  /** Something happened: show the controls and restart the idle timer. */
  activity() {
    this.show();
    this.schedule();
  }

  schedule() {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      if (this.isPlaying() && !this.isBusy() && !this.pointerOnControl) this.hide();
      else this.schedule();
    }, IDLE_MS);
  }
}
