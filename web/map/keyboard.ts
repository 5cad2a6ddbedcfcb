// keyboard access (docs/api.md "Keyboard"): the map itself takes arrows and +/- when focused
// (Leaflet's own); these keys work anywhere outside a text box. / search, L the list, D dark mode,
// Escape closes the panel (or leaves the box you are typing in), and list rows and search results
// take Enter (list.ts, search.ts).

export interface Keys {
  search: () => void;
  list: () => void;
  theme: () => void;
  escape: () => void;
}

export function bindKeys(k: Keys): void {
  document.addEventListener('keydown', (e) => {
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    const t = e.target as HTMLElement | null;
    const typing = !!t && (t.tagName === 'INPUT' || t.tagName === 'TEXTAREA' || t.isContentEditable);
    if (e.key === 'Escape') {
      if (typing) t!.blur();
      else k.escape();
      return;
    }
    if (typing) return;
    const f = e.key === '/' ? k.search : e.key === 'l' || e.key === 'L' ? k.list : e.key === 'd' || e.key === 'D' ? k.theme : null;
    if (f) {
      e.preventDefault();
      f();
    }
  });
}
