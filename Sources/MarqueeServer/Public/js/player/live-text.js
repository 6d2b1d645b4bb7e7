// Live Text on a paused frame, as in Apple's player: once playback is paused and the picture
// has stayed still for a moment, the server reads the frame's text (GET …/frame-text); a
// Live Text button appears when there is some, and a transparent layer of the words, aligned
// with the picture in fit, fill and full screen, lets a person select and copy them (I-beam,
// drag, double-click a word, long-press on touch, Ctrl/Cmd+A, Ctrl/Cmd+C, the context menu).
// Nothing is asked while playing, seeking or scrubbing; playing again clears the layer.
import { t, addStrings } from '../i18n.js';
import { ensureStylesheet } from '../stylesheet.js';

addStrings({
  en: {
    liveText: 'Live Text', liveTextShow: 'Show text in the video', liveTextHide: 'Hide text highlights',
    liveTextRegion: 'Text in the paused video frame', liveTextFound: 'Text found in the video. Press Live Text to see it.',
    liveTextCopied: 'Copied',
  },
  ja: {
    liveText: 'テキスト認識表示', liveTextShow: 'ビデオ内のテキストを表示', liveTextHide: 'テキストのハイライトを隠す',
    liveTextRegion: '一時停止中のビデオフレームのテキスト', liveTextFound: 'ビデオ内にテキストがあります。「テキスト認識表示」で表示できます。',
    liveTextCopied: 'コピーしました',
  },
});

const LONG_PRESS_MS = 500;

/** Where the picture of `video` is drawn inside its element, in page pixels (object-fit). */
export function pictureRect(element, pictureWidth, pictureHeight, gravity) {
  const box = element.getBoundingClientRect();
  if (!pictureWidth || !pictureHeight) return { left: box.left, top: box.top, width: box.width, height: box.height, clip: box };
  const scale = gravity === 'fill'
    ? Math.max(box.width / pictureWidth, box.height / pictureHeight)
    : Math.min(box.width / pictureWidth, box.height / pictureHeight);
  const width = pictureWidth * scale, height = pictureHeight * scale;
  return { left: box.left + (box.width - width) / 2, top: box.top + (box.height - height) / 2, width, height, clip: box };
}

/** A box in the decoded frame (before a clockwise `rotation`) in the upright picture's pixels. */
export function uprightBox(box, frameSize, rotation) {
  const { width: w, height: h } = frameSize;
  switch (rotation) {
    case 90: return { x: h - (box.y + box.height), y: box.x, width: box.height, height: box.width };
    case 180: return { x: w - (box.x + box.width), y: h - (box.y + box.height), width: box.width, height: box.height };
    case 270: return { x: box.y, y: w - (box.x + box.width), width: box.height, height: box.width };
    default: return box;
  }
}

export class LiveText {
  /**
   * @param {HTMLElement} player the player element the layer and button go into
   * @param {HTMLVideoElement} video the primary video element
   * @param {{assetID: string, sessionID: string, delay: number, allowed: () => boolean, busy: () => boolean,
   *          toast?: (text: string) => void}} options
   */
  constructor(player, video, options) {
    this.player = player;
    this.video = video;
    this.options = options;
    // Seconds the frame must stay still: the address's `frameAnalysisDelay`, else the player settings.
    this.delay = options.delay ?? 0.5;
    if (options.delay == null) {
      fetch('/api/settings/player').then((response) => (response.ok ? response.json() : null)).then((settings) => {
        if (Number.isFinite(settings?.videoFrameAnalysisDelay)) this.delay = settings.videoFrameAnalysisDelay;
      }).catch(() => {});
    }
    ensureStylesheet('live-text');
    this.timer = null;
    this.request = null;     // the AbortController of the request in flight
    this.result = null;      // the analysis shown now
    this.requests = 0;       // how many analyses were asked for (tests read it)
    this.words = [];         // {span, node, line, spaceAfter} in reading order
    this.pressTimer = null;

    this.layer = document.createElement('div');
    this.layer.className = 'live-text-layer';
    this.layer.hidden = true;
    this.layer.setAttribute('role', 'region');
    this.layer.setAttribute('aria-label', t('liveTextRegion'));
    this.layer.lang = '';
    this.surface = document.createElement('div');
    this.surface.className = 'live-text-surface';
    this.layer.append(this.surface);

    this.button = document.createElement('button');
    this.button.className = 'live-text-button icon-button';
    this.button.hidden = true;
    this.button.setAttribute('aria-pressed', 'false');
    this.button.innerHTML = '<svg viewBox="0 0 24 24" width="1em" height="1em" aria-hidden="true" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" stroke-linejoin="round"><path d="M4 8V5a1 1 0 0 1 1-1h3M16 4h3a1 1 0 0 1 1 1v3M20 16v3a1 1 0 0 1-1 1h-3M8 20H5a1 1 0 0 1-1-1v-3"/><path d="M8 9h8M8 12h8M8 15h5"/></svg>';
    this.status = document.createElement('div');
    this.status.className = 'live-text-status';
    this.status.setAttribute('role', 'status');
    this.status.setAttribute('aria-live', 'polite');
    const surface = player.querySelector('#gesture-surface');
    surface.after(this.layer);
    player.append(this.button, this.status);
    this.applyStrings();

    this.button.addEventListener('click', (event) => {
      event.stopPropagation();
      this.setHighlighted(this.button.getAttribute('aria-pressed') !== 'true');
    });
    this.wireVideo();
    this.wireSelection();
    new ResizeObserver(() => this.place()).observe(video);
    new MutationObserver(() => this.place()).observe(player, { attributes: true, attributeFilter: ['data-gravity'] });
    document.addEventListener('fullscreenchange', () => this.place());
    addEventListener('resize', () => this.place());
  }

  applyStrings() {
    this.layer.setAttribute('aria-label', t('liveTextRegion'));
    const pressed = this.button.getAttribute('aria-pressed') === 'true';
    this.button.setAttribute('aria-label', pressed ? t('liveTextHide') : t('liveTextShow'));
    this.button.title = t('liveText');
  }

  // MARK: When to ask

  wireVideo() {
    const video = this.video;
    const restart = () => { this.clear(); this.schedule(); };
    video.addEventListener('pause', restart);
    video.addEventListener('seeked', restart);
    video.addEventListener('loadeddata', () => this.schedule());
    // A seek may land before the frame is decoded; count the stillness from when it is there.
    video.addEventListener('canplay', () => { if (!this.result && !this.request) this.schedule(); });
    for (const name of ['play', 'playing', 'seeking', 'emptied', 'ratechange']) {
      video.addEventListener(name, () => { if (name !== 'ratechange' || !video.paused) this.clear(); });
    }
    video.addEventListener('timeupdate', () => {
      // The picture moved (playing, stepping): whatever was read no longer matches.
      if (this.result && Math.abs(video.currentTime - this.result.time) > 0.02) this.clear();
    });
  }

  /** Starts the still-frame countdown when the frame may be analysed. */
  schedule() {
    clearTimeout(this.timer);
    if (!this.eligible()) return;
    const time = this.video.currentTime;
    this.timer = setTimeout(() => {
      if (this.eligible() && this.video.currentTime === time) this.analyse(time);
    }, this.delay * 1000);
  }

  eligible() {
    const video = this.video;
    return video.paused && !video.seeking && video.readyState >= 2 && this.options.allowed() && !this.options.busy();
  }

  async analyse(time) {
    this.request?.abort();
    const controller = new AbortController();
    this.request = controller;
    this.requests += 1;
    const url = `/api/assets/${encodeURIComponent(this.options.assetID)}/frame-text?time=${time.toFixed(6)}`
      + `&session=${encodeURIComponent(this.options.sessionID)}`;
    try {
      const response = await fetch(url, { signal: controller.signal, cache: 'no-store' });
      if (!response.ok) return;
      const result = await response.json();
      if (controller.signal.aborted || !this.eligible() || this.video.currentTime !== time) return;
      this.show({ ...result, time });
    } catch (error) {
      if (error.name !== 'AbortError') console.warn('live text:', error.message ?? error);
    } finally {
      if (this.request === controller) this.request = null;
    }
  }

  /** Forgets the frame's text and any request for it (playing, seeking, scrubbing). */
  clear() {
    clearTimeout(this.timer);
    this.timer = null;
    this.request?.abort();
    this.request = null;
    if (!this.result) return;
    this.result = null;
    const selection = getSelection();
    if (selection.rangeCount && this.layer.contains(selection.anchorNode)) selection.removeAllRanges();
    this.surface.replaceChildren();
    this.words = [];
    this.layer.hidden = true;
    this.button.hidden = true;
    this.setHighlighted(false);
    this.player.dataset.liveText = 'false';
    this.player.classList.remove('live-text-yields', 'live-text-on');
  }

  get hasText() { return Boolean(this.result && this.words.length); }

  // MARK: The layer

  show(result) {
    this.clear();
    const lines = result.blocks.flatMap((block) => block.lines);
    if (!lines.length) return;
    this.result = result;
    for (const line of lines) {
      const lineElement = document.createElement('div');
      lineElement.className = 'live-text-line';
      lineElement.dataset.box = JSON.stringify(line.box);
      line.words.forEach((word, index) => {
        const span = document.createElement('span');
        span.className = 'live-text-word';
        // The trailing space is part of the word so copied text keeps the line's spacing.
        const node = document.createTextNode(word.text + (word.spaceAfter && index < line.words.length - 1 ? ' ' : ''));
        span.append(node);
        span.dataset.box = JSON.stringify(word.box);
        lineElement.append(span);
        this.words.push({ span, node, line: lineElement, text: word.text });
      });
      this.surface.append(lineElement);
    }
    this.layer.hidden = false;
    this.button.hidden = false;
    this.player.dataset.liveText = 'true';
    this.status.textContent = t('liveTextFound');
    this.place();
  }

  /** Aligns the words with the picture as it is drawn now (fit, fill, full screen, any size). */
  place() {
    if (!this.result) return;
    const { frameSize, rotation } = this.result;
    const turned = rotation === 90 || rotation === 270;
    const upright = turned ? { width: frameSize.height, height: frameSize.width } : frameSize;
    const picture = pictureRect(this.video, upright.width, upright.height, this.player.dataset.gravity);
    const playerBox = this.player.getBoundingClientRect();
    // The layer is the element's box (clipping a filled picture); the surface is the picture.
    Object.assign(this.layer.style, {
      left: `${picture.clip.left - playerBox.left}px`, top: `${picture.clip.top - playerBox.top}px`,
      width: `${picture.clip.width}px`, height: `${picture.clip.height}px`,
    });
    Object.assign(this.surface.style, {
      left: `${picture.left - picture.clip.left}px`, top: `${picture.top - picture.clip.top}px`,
      width: `${picture.width}px`, height: `${picture.height}px`,
    });
    const scaleX = picture.width / upright.width, scaleY = picture.height / upright.height;
    for (const lineElement of this.surface.children) {
      const line = uprightBox(JSON.parse(lineElement.dataset.box), frameSize, rotation);
      const height = line.height * scaleY;
      Object.assign(lineElement.style, {
        left: `${line.x * scaleX}px`, top: `${line.y * scaleY}px`, width: `${line.width * scaleX}px`, height: `${height}px`,
        fontSize: `${Math.max(1, height * 0.9)}px`, lineHeight: `${height}px`,
      });
      for (const span of lineElement.children) {
        const box = uprightBox(JSON.parse(span.dataset.box), frameSize, rotation);
        const width = box.width * scaleX;
        Object.assign(span.style, { left: `${(box.x - line.x) * scaleX}px`, width: `${width}px`, transform: '' });
        // Stretch the glyphs (spaces included) across the word's box so the I-beam and the
        // selection follow the letters on screen.
        const natural = span.scrollWidth || 1;
        const letters = span.firstChild.data.trimEnd().length || 1;
        const wanted = width * span.firstChild.data.length / letters;
        span.style.transform = `scaleX(${wanted / natural})`;
      }
    }
    this.yieldControls();
  }

  /**
   * The text layer wins. With Live Text turned on (its button pressed) every control but that
   * button steps aside, as on Apple's player, so every word can be pressed, double-clicked or
   * long-pressed; turning it off brings them back. Before that, centre controls that would
   * cover a word already step aside while the frame's text is shown. Playing again (Space, a
   * tap beside the text, a remote) clears the layer and brings everything back.
   */
  yieldControls() {
    this.player.classList.remove('live-text-yields', 'live-text-on');
    if (!this.hasText) return;
    const on = this.layer.classList.contains('highlighted');
    this.player.classList.toggle('live-text-on', on);
    const controls = [...this.player.querySelectorAll('.centre-controls button')];
    const covered = (a, b) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
    const buttons = controls.map((button) => button.getBoundingClientRect()).filter((r) => r.width && r.height);
    const yields = on || this.words.some(({ span }) => buttons.some((button) => covered(span.getBoundingClientRect(), button)));
    this.player.classList.toggle('live-text-yields', yields);
  }

  setHighlighted(on) {
    this.layer.classList.toggle('highlighted', on && this.hasText);
    this.button.setAttribute('aria-pressed', String(on && this.hasText));
    this.applyStrings();
    this.yieldControls();
  }

  // MARK: Selecting and copying

  wireSelection() {
    const layer = this.layer;
    // Pointer presses on the words select; they never reach the scrub gesture or the tap that
    // toggles playback (the layer is above the gesture surface, and stops the events here).
    for (const name of ['pointerdown', 'pointerup', 'click', 'dblclick']) {
      layer.addEventListener(name, (event) => event.stopPropagation());
    }
    layer.addEventListener('dblclick', (event) => {
      const entry = this.words.find((word) => word.span === event.target.closest?.('.live-text-word'));
      if (!entry) return;
      event.preventDefault();
      this.selectWord(entry);
    });
    // Long-press on touch selects the word under the finger.
    layer.addEventListener('pointerdown', (event) => {
      if (event.pointerType !== 'touch') return;
      const entry = this.words.find((word) => word.span === event.target.closest?.('.live-text-word'));
      if (!entry) return;
      const { clientX, clientY } = event;
      clearTimeout(this.pressTimer);
      this.pressTimer = setTimeout(() => this.selectWord(entry), LONG_PRESS_MS);
      const cancel = (move) => {
        if (move.type === 'pointermove' && Math.hypot(move.clientX - clientX, move.clientY - clientY) < 10) return;
        clearTimeout(this.pressTimer);
        layer.removeEventListener('pointermove', cancel);
      };
      layer.addEventListener('pointermove', cancel);
      layer.addEventListener('pointerup', cancel, { once: true });
      layer.addEventListener('pointercancel', cancel, { once: true });
    });
    document.addEventListener('keydown', (event) => {
      if (!(event.ctrlKey || event.metaKey) || event.altKey || !this.hasText) return;
      const target = event.target;
      if (target instanceof HTMLInputElement || target instanceof HTMLTextAreaElement || target?.isContentEditable) return;
      if (event.key === 'a' || event.key === 'A') {
        event.preventDefault();
        this.selectAll();
      }
    });
    document.addEventListener('copy', (event) => {
      const text = this.selectedText();
      if (text == null) return;
      event.clipboardData.setData('text/plain', text);
      event.preventDefault();
    });
  }

  selectWord(entry) {
    const range = document.createRange();
    range.setStart(entry.node, 0);
    range.setEnd(entry.node, entry.text.length);
    const selection = getSelection();
    selection.removeAllRanges();
    selection.addRange(range);
  }

  /** Selects every word of the frame (Ctrl/Cmd+A while Live Text is shown). */
  selectAll() {
    if (!this.words.length) return;
    const first = this.words[0], last = this.words[this.words.length - 1];
    const range = document.createRange();
    range.setStart(first.node, 0);
    range.setEnd(last.node, last.text.length);
    const selection = getSelection();
    selection.removeAllRanges();
    selection.addRange(range);
  }

  /** The selected frame text as written: spaces between words, a newline between lines; null when
   *  the selection is not in the layer. */
  selectedText() {
    const selection = getSelection();
    if (!selection.rangeCount || selection.isCollapsed) return null;
    const range = selection.getRangeAt(0);
    if (!this.layer.contains(range.commonAncestorContainer)) return null;
    let text = '';
    let previousLine = null;
    for (const word of this.words) {
      if (!range.intersectsNode(word.node)) continue;
      let start = 0, end = word.node.length;
      if (range.startContainer === word.node) start = range.startOffset;
      if (range.endContainer === word.node) end = range.endOffset;
      if (start >= end) continue;
      if (previousLine && previousLine !== word.line) text = `${text.trimEnd()}\n`;
      text += word.node.data.slice(start, end);
      previousLine = word.line;
    }
    return text.trimEnd();
  }
}
