// "Dialogue only" (essay.css) hides the tool calls, their outputs and the thinking, but
// never what the address points at: a link followed to a message it hides (in the page,
// from another page, or the search's "Go to"), the page opened at one, or its address
// changed to one turns the switch off, says so beside it, and lands on the message. Off,
// rather than the one message shown among the dialogue: the switch then says what the
// page shows, and the message is read with the work around it.
(() => {
  "use strict";
  const toggle = document.getElementById("dialogue-only");
  if (!toggle) return;
  const note = document.querySelector(".msg-switch__note");
  const page = (url) => url.href.split("#")[0];

  // The element of this page that `url` points at, if any.
  const pointedAt = (url) => {
    if (!url.hash || page(url) !== page(location)) return null;
    try {
      return document.getElementById(decodeURIComponent(url.hash.slice(1)));
    } catch {
      return null; // a malformed escape names nothing
    }
  };

  // Turns the switch off when it hides `target`; whether it did.
  const reveal = (target) => {
    if (!target || !toggle.checked || target.getClientRects().length) return false;
    toggle.checked = false;
    toggle.dispatchEvent(new Event("change", { bubbles: true }));
    if (note) {
      const n = target.closest("[data-msg]")?.dataset.msg;
      note.textContent = `Turned off to show ${n ? `message ${n}` : "what the link points at"}.`;
    }
    return true;
  };

  // The address's target, shown and scrolled to: after the browser tried to scroll to
  // it, which it cannot while the target is hidden.
  const land = () => {
    const target = pointedAt(location);
    if (reveal(target)) target.scrollIntoView();
  };

  // Before a link's own navigation, which then scrolls to its target as to any other.
  document.addEventListener("click", (event) => {
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    const link = event.target instanceof Element ? event.target.closest("a[href]") : null;
    if (link) reveal(pointedAt(new URL(link.href, document.baseURI)));
  }, true);
  addEventListener("hashchange", land);
  addEventListener("pageshow", land); // a page opened, reloaded or brought back with the switch on
  toggle.addEventListener("change", () => {
    if (toggle.checked && note) note.textContent = "";
  });
  land();
})();
