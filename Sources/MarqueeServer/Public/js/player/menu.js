// A popup menu anchored to a button: sections of radio items or plain items, arrow-key
// navigation, closes on Escape, on choosing, or on a press outside.

export class Menu {
  constructor(container, button, id) {
    this.container = container;
    this.button = button;
    this.id = id;
    this.element = null;
    button.addEventListener('click', (event) => {
      event.stopPropagation();
      this.isOpen ? this.close() : this.open();
    });
  }

  get isOpen() { return this.element !== null; }

  /** `build(menu)` returns sections: [{title, items: [{label, value, checked, ariaLabel, onSelect}]}]. */
  setBuilder(build) { this.build = build; if (this.isOpen) this.render(); }

  open() {
    this.element = document.createElement('div');
    this.element.className = 'menu';
    this.element.id = this.id;
    this.element.setAttribute('role', 'menu');
    this.render();
    this.container.append(this.element);
    this.button.setAttribute('aria-expanded', 'true');
    this.button.setAttribute('aria-controls', this.id);
    // The chosen item, else the first (a selector list would take whichever comes first).
    (this.element.querySelector('[aria-checked="true"]') ?? this.element.querySelector('button'))?.focus();
    this.outside = (event) => {
      if (!this.element?.contains(event.target) && event.target !== this.button && !this.button.contains(event.target)) {
        event.stopPropagation();
        event.preventDefault();
        this.close();
      }
    };
    setTimeout(() => document.addEventListener('pointerdown', this.outside, true));
    this.element.addEventListener('keydown', (event) => this.key(event));
  }

  render() {
    const sections = this.build?.() ?? [];
    this.element.replaceChildren();
    for (const section of sections) {
      if (section.title) {
        const heading = document.createElement('h3');
        heading.textContent = section.title;
        heading.id = `${this.id}-${section.key}`;
        this.element.append(heading);
      }
      const group = document.createElement('div');
      group.setAttribute('role', 'group');
      if (section.key) group.dataset.section = section.key;
      if (section.title) group.setAttribute('aria-labelledby', `${this.id}-${section.key}`);
      for (const item of section.items) {
        const button = document.createElement('button');
        button.setAttribute('role', item.checked === undefined ? 'menuitem' : 'menuitemradio');
        if (item.checked !== undefined) button.setAttribute('aria-checked', String(item.checked));
        if (item.value !== undefined) button.dataset.value = String(item.value);
        if (item.ariaLabel) button.setAttribute('aria-label', item.ariaLabel);
        if (item.disabled) button.disabled = true;
        const label = document.createElement('span');
        label.textContent = item.label;
        button.append(label);
        if (item.detail) {
          const detail = document.createElement('span');
          detail.className = 'menu-value';
          detail.textContent = item.detail;
          button.append(detail);
        }
        button.addEventListener('click', (event) => {
          event.stopPropagation();
          const keepOpen = item.onSelect?.();
          if (keepOpen) this.render(); else this.close();
        });
        group.append(button);
      }
      this.element.append(group);
    }
  }

  key(event) {
    const items = [...this.element.querySelectorAll('button')];
    const index = items.indexOf(document.activeElement);
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      const next = (index + (event.key === 'ArrowDown' ? 1 : -1) + items.length) % items.length;
      items[next]?.focus();
    } else if (event.key === 'Escape') {
      event.preventDefault();
      this.close();
    }
    event.stopPropagation();
  }

  close() {
    if (!this.element) return;
    document.removeEventListener('pointerdown', this.outside, true);
    this.element.remove();
    this.element = null;
    this.button.setAttribute('aria-expanded', 'false');
    // aria-controls names the menu only while it exists (an ID naming nothing is invalid ARIA).
    this.button.removeAttribute('aria-controls');
    this.button.focus({ preventScroll: true });
  }
}
