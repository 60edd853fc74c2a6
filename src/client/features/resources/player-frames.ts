/**
 * Titles every iframe inside `container` for screen readers (axe frame-title),
 * also those in the open shadow roots of react-player's provider elements
 * (youtube-video keeps its iframe there) and those created or replaced later.
 * An iframe that already has a title keeps it. Returns the cleanup.
 */
export function titleFramesWithin(container: HTMLElement, title: string): () => void {
  const watched = new WeakSet<Node>();
  const observer = new MutationObserver(() => applyTitles());
  const watch = (root: Node) => {
    if (watched.has(root)) return;
    watched.add(root);
    observer.observe(root, { childList: true, subtree: true });
  };
  function applyTitles() {
    const roots: ParentNode[] = [container];
    // The loop also visits the shadow roots found on the way.
    for (const root of roots) {
      for (const element of root.querySelectorAll('*')) {
        if (element instanceof HTMLIFrameElement && !element.title) element.title = title;
        if (element.shadowRoot) {
          watch(element.shadowRoot);
          roots.push(element.shadowRoot);
        }
      }
    }
  }
  watch(container);
  // A provider element attaches its shadow root when it starts loading; 'loadstart'
  // does not bubble, so it is caught on the way down.
  container.addEventListener('loadstart', applyTitles, true);
  applyTitles();
  return () => {
    observer.disconnect();
    container.removeEventListener('loadstart', applyTitles, true);
  };
}

/**
 * True for the rejection a provider element leaves unhandled when its player
 * script (YouTube's iframe_api, Wistia's E-v1.js) cannot load, e.g. offline:
 * the script element's error event.
 */
export function isPlayerScriptFailure(reason: unknown): boolean {
  return (
    typeof Event !== 'undefined' &&
    reason instanceof Event &&
    reason.type === 'error' &&
    typeof HTMLScriptElement !== 'undefined' &&
    reason.target instanceof HTMLScriptElement
  );
}
