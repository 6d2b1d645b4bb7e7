// A small stand-in for the DOM, enough for the page modules that take their elements as
// arguments: attributes, dataset, classList, children, events, text. No layout.

export class FakeElement extends EventTarget {
  constructor(tagName = 'div', { id = '', className = '' } = {}) {
    super();
    this.tagName = tagName.toUpperCase();
    this.id = id;
    this.className = className;
    this.hidden = false;
    this.disabled = false;
    this.textContent = '';
    this.value = '';
    this.dataset = {};
    this.style = {};
    this.attributes = new Map();
    this.children = [];
    this.parentElement = null;
    this.rect = { left: 0, top: 0, width: 0, height: 0 };
    const classes = new Set(className.split(' ').filter(Boolean));
    this.classList = {
      add: (...names) => names.forEach((n) => classes.add(n)),
      remove: (...names) => names.forEach((n) => classes.delete(n)),
      toggle: (name, force) => ((force ?? !classes.has(name)) ? classes.add(name) : classes.delete(name), classes.has(name)),
      contains: (name) => classes.has(name),
    };
  }

  setAttribute(name, value) { this.attributes.set(name, String(value)); }
  getAttribute(name) { return this.attributes.has(name) ? this.attributes.get(name) : null; }
  removeAttribute(name) { this.attributes.delete(name); }
  hasAttribute(name) { return this.attributes.has(name); }

  append(...nodes) {
    for (const node of nodes) {
      const child = typeof node === 'string' ? Object.assign(new FakeElement('#text'), { textContent: node }) : node;
      child.parentElement = this;
      this.children.push(child);
    }
  }
  prepend(...nodes) { const old = this.children; this.children = []; this.append(...nodes); this.children.push(...old); }
  replaceChildren(...nodes) { this.children = []; this.append(...nodes); }
  remove() { if (this.parentElement) this.parentElement.children = this.parentElement.children.filter((c) => c !== this); this.parentElement = null; }
  get firstElementChild() { return this.children[0] ?? null; }

  /** Every element below this one, depth first. */
  *descendants() { for (const child of this.children) { yield child; yield* child.descendants(); } }

  /** Supports `.class`, `#id`, `tag` and `[data-x="y"]` (one simple selector). */
  matches(selector) {
    if (selector.startsWith('.')) return this.classList.contains(selector.slice(1)) || this.className.split(' ').includes(selector.slice(1));
    if (selector.startsWith('#')) return this.id === selector.slice(1);
    const attribute = selector.match(/^\[data-([\w-]+)="(.*)"\]$/);
    if (attribute) return this.dataset[attribute[1].replace(/-(\w)/g, (_, c) => c.toUpperCase())] === attribute[2];
    return this.tagName === selector.toUpperCase();
  }
  querySelector(selector) { for (const e of this.descendants()) if (e.matches(selector)) return e; return null; }
  querySelectorAll(selector) { return [...this.descendants()].filter((e) => e.matches(selector)); }
  getBoundingClientRect() { return this.rect; }
  get text() { return [this.textContent, ...this.children.map((c) => c.text)].join(''); }
}

/** A document whose `getElementById` finds (or makes) elements by id. */
export function fakeDocument() {
  const byID = new Map();
  const document = new EventTarget();
  Object.assign(document, {
    title: '',
    head: new FakeElement('head'),
    body: new FakeElement('body'),
    documentElement: new FakeElement('html'),
    activeElement: null,
    pictureInPictureElement: null,
    createElement: (tag) => new FakeElement(tag),
    createTextNode: (text) => Object.assign(new FakeElement('#text'), { textContent: text }),
    getElementById: (id) => {
      if (!byID.has(id)) byID.set(id, new FakeElement('div', { id }));
      return byID.get(id);
    },
  });
  return document;
}

/** A media element: time, rates, play and pause, as a test sets them. */
export class FakeVideo extends FakeElement {
  constructor() {
    super('video');
    this.currentTime = 0;
    this.duration = NaN;
    this.paused = true;
    this.ended = false;
    this.seeking = false;
    this.readyState = 4;
    this.playbackRate = 1;
    this.defaultPlaybackRate = 1;
    this.volume = 1;
    this.muted = false;
    this.calls = [];
    this.playError = null;
  }
  play() {
    this.calls.push(['play', this.playbackRate]);
    if (this.playError) return Promise.reject(this.playError);
    this.paused = false;
    return Promise.resolve();
  }
  pause() { this.calls.push(['pause']); this.paused = true; }
  requestPictureInPicture() { this.calls.push(['pip']); return Promise.resolve(); }
  requestVideoFrameCallback(callback) { this.calls.push(['frame']); queueMicrotask(callback); }
}
