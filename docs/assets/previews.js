// A citation link shows a preview of the message it cites: on hover after a short delay,
// on keyboard focus, and on a tap on a touch screen, where the tap opens the preview
// instead of following the link (a second tap, or a link in the preview, goes on). The
// previews are written into the page at build time (hooks/msgref/previews.py): nothing
// is fetched, so a copy opened from the file system shows them too.
(() => {
  // Without the Popover API, or without script, the links simply lead to the messages.
  if (!Object.prototype.hasOwnProperty.call(HTMLElement.prototype, "popover")) return;
  const OPEN_DELAY = 300, CLOSE_DELAY = 300, GAP = 6;
  let shown = null;  // {link, box} of the open preview
  let openTimer = 0, closeTimer = 0, refocusing = false;
  let lastPointer = matchMedia("(pointer: coarse)").matches ? "touch" : "mouse";

  const previewOf = (link) => {
    // A message's entry on the transcript, or in the one-page essay's appendix.
    const match = /#(?:appendix-)?msg-(\d+)$/.exec(link.getAttribute("href") || "");
    return match ? document.getElementById("msg-preview-" + match[1]) : null;
  };

  // Below the link, or above it where there is more room; never past the window's edges.
  const place = (link, box) => {
    const anchor = link.getClientRects()[0] || link.getBoundingClientRect();
    box.style.maxHeight = "";
    const below = innerHeight - anchor.bottom - 2 * GAP, above = anchor.top - 2 * GAP;
    const down = box.offsetHeight <= below || below >= above;
    if (box.offsetHeight > (down ? below : above)) box.style.maxHeight = Math.max(down ? below : above, 80) + "px";
    const width = document.documentElement.clientWidth;
    box.style.left = Math.max(GAP, Math.min(anchor.left, width - box.offsetWidth - GAP)) + "px";
    box.style.top = (down ? anchor.bottom + GAP : Math.max(GAP, anchor.top - GAP - box.offsetHeight)) + "px";
  };

  const hide = () => {
    clearTimeout(openTimer);
    clearTimeout(closeTimer);
    if (!shown) return;
    const { link, box } = shown;
    shown = null;
    if (box.matches(":popover-open")) box.hidePopover();
    link.setAttribute("aria-expanded", "false");
  };

  const show = (link) => {
    clearTimeout(openTimer);
    clearTimeout(closeTimer);
    if (shown && shown.link === link) return;
    hide();
    const box = previewOf(link);
    // The source puts the preview's links next in the Tab order, right after the citation.
    box.showPopover({ source: link });
    place(link, box);
    link.setAttribute("aria-expanded", "true");
    shown = { link, box };
  };

  const closeSoon = () => {
    clearTimeout(openTimer);
    clearTimeout(closeTimer);
    closeTimer = setTimeout(hide, CLOSE_DELAY);  // time to move the pointer into the preview
  };

  const within = (node) => shown && (shown.link.contains(node) || shown.box.contains(node));

  for (const link of document.querySelectorAll("a.msg-ref[href]")) {
    const box = previewOf(link);
    if (!box) continue;
    link.setAttribute("aria-controls", box.id);
    link.setAttribute("aria-expanded", "false");
    link.setAttribute("aria-describedby", box.id + "-text");
    link.addEventListener("pointerenter", (event) => {
      if (event.pointerType === "touch") return;
      clearTimeout(closeTimer);
      if (!shown || shown.link !== link) openTimer = setTimeout(() => show(link), OPEN_DELAY);
    });
    link.addEventListener("pointerleave", (event) => { if (event.pointerType !== "touch") closeSoon(); });
    link.addEventListener("click", (event) => {
      const touch = event.pointerType ? event.pointerType === "touch" : lastPointer === "touch" && event.detail > 0;
      if (touch && !(shown && shown.link === link)) {
        event.preventDefault();
        show(link);
      }
    });
    box.addEventListener("pointerenter", () => clearTimeout(closeTimer));
    box.addEventListener("pointerleave", (event) => { if (event.pointerType !== "touch") closeSoon(); });
  }

  document.addEventListener("pointerdown", (event) => {
    lastPointer = event.pointerType || lastPointer;
    if (shown && !within(event.target)) hide();
  }, true);

  document.addEventListener("focusin", (event) => {
    if (shown && !within(event.target)) hide();
    const link = event.target.closest && event.target.closest("a.msg-ref[aria-controls]");
    if (link && !refocusing && link.matches(":focus-visible")) show(link);  // the keyboard's focus, not a click's
  });

  document.addEventListener("keydown", (event) => {
    if (event.key !== "Escape" || !shown) return;
    const { link, box } = shown;
    const focusInside = box.contains(document.activeElement);
    hide();
    if (!focusInside) return;
    refocusing = true;  // back on the link, with the preview closed
    link.focus();
    refocusing = false;
  });

  const follow = () => { if (shown) place(shown.link, shown.box); };
  addEventListener("scroll", follow, { passive: true, capture: true });
  addEventListener("resize", follow, { passive: true });
})();
