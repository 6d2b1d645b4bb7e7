// Controls fade out during playback and come back on pointer movement, touch or focus;
// they stay while paused, while a menu or panel is open, while the mouse pointer rests on a
// control, and while scrubbing (which hides everything but the timeline).

const CONTROL = '.chrome button, .chrome a, .chrome input, .chrome [role="slider"], .volume, .menu, .info-panel';

const IDLE_MS = 3000;

export class ControlsVisibility {
  constructor(player, { isPlaying, isBusy }) {
    this.player = player;
    this.isPlaying = isPlaying;
    this.isBusy = isBusy;
    this.timer = null;
    this.pointerOnControl = false;
    player.addEventListener('pointermove', (event) => {
      if (event.pointerType !== 'mouse') return;
      this.pointerOnControl = Boolean(event.target?.closest?.(CONTROL));
      this.activity();
    });
    player.addEventListener('pointerleave', () => { this.pointerOnControl = false; });
    player.addEventListener('focusin', () => this.activity());
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
