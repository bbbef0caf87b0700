// A citation link shows a preview of the message it cites: on hover after a short delay,
// on keyboard focus, and on a tap on a touch screen, where the tap opens the preview
// instead of following the link (a second tap, or a link in the preview, goes on). The
// previews are written into the page at build time (hooks/msgref/previews.py): nothing
// is fetched, so a copy opened from the file system shows them too. On a transcript page,
// the map's marks and its list show a preview of the message they lead to on the page,
// made from the message's own entry when first asked for, and each "Cited in" link the
// passage that cites the message, written in with it.
(() => {
  // Without the Popover API, or without script, the links simply lead to the messages.
  if (!Object.prototype.hasOwnProperty.call(HTMLElement.prototype, "popover")) return;
  const OPEN_DELAY = 300, CLOSE_DELAY = 300, GAP = 6;
  let shown = null;  // {link, box} of the open preview
  let openTimer = 0, closeTimer = 0, refocusing = false;
  let lastPointer = matchMedia("(pointer: coarse)").matches ? "touch" : "mouse";

  const previewOf = (link) => {
    // A passage citing a message, for a "Cited in" link of the transcript.
    if (link.dataset && link.dataset.passage) return document.getElementById(link.dataset.passage);
    // A message's entry on the transcript, or in the one-page essay's appendix; a range
    // of messages (#msg-49-51), whose preview is its first message's and names the others.
    const match = /#(?:appendix-)?msg-(\d+(?:-\d+)?)$/.exec(link.getAttribute("href") || "");
    return match ? document.getElementById("msg-preview-" + match[1]) || entryPreview(link, match[1]) : null;
  };

  // A preview of a message shown on this page, for a link of the transcript's map: its
  // line and its content, copied from its entry (not its "Cited in" list, nor its Cite).
  const entryPreview = (link, n) => {
    const entry = link.closest(".msg-map") && document.querySelector(`.msg-item[data-msg="${n}"]`);
    if (!entry) return null;
    const box = document.createElement("div");
    box.id = "msg-preview-" + n;
    box.className = "msg-preview";
    box.popover = "manual";
    box.setAttribute("role", "dialog");
    box.setAttribute("aria-labelledby", box.id + "-head");
    const head = document.createElement("p");
    head.className = "msg-preview__head";
    head.id = box.id + "-head";
    head.textContent = entry.querySelector("h2").textContent;
    const text = entry.querySelector(".msg-entry").cloneNode(true);
    text.id = box.id + "-text";
    for (const element of text.querySelectorAll("[id]")) element.removeAttribute("id");
    const more = document.createElement("p");
    more.className = "msg-preview__more";
    more.append(Object.assign(document.createElement("a"), { href: `#msg-${n}`, textContent: "See it on this page" }));
    box.append(head, text, more);
    (document.querySelector(".msg-previews") || document.querySelector("article") || document.body).append(box);
    return box;
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
    const box = bound(link);
    if (!box) return;
    // The source puts the preview's links next in the Tab order, right after the citation;
    // a mark of the map, an element of SVG, cannot be one.
    if (link instanceof HTMLElement) box.showPopover({ source: link });
    else box.showPopover();
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

  // The link's preview, found or made, tied to the link the first time it is asked for.
  const bound = (link) => {
    if (link.hasAttribute("aria-controls")) return document.getElementById(link.getAttribute("aria-controls"));
    const box = previewOf(link);
    if (!box) return null;
    link.setAttribute("aria-controls", box.id);
    link.setAttribute("aria-expanded", "false");
    link.setAttribute("aria-describedby", box.id + "-text");
    if (!box.dataset.bound) {
      box.dataset.bound = "yes";
      box.addEventListener("pointerenter", () => clearTimeout(closeTimer));
      box.addEventListener("pointerleave", (event) => { if (event.pointerType !== "touch") closeSoon(); });
    }
    return box;
  };

  // Citations are tied at once; the map's links, which may be thousands, as they are used.
  const links = [...document.querySelectorAll("a.msg-ref[href], a[data-passage]")].filter(bound);
  links.push(...document.querySelectorAll(".msg-map a[href]"));
  for (const link of links) {
    link.addEventListener("pointerenter", (event) => {
      if (event.pointerType === "touch") return;
      clearTimeout(closeTimer);
      if (!shown || shown.link !== link) openTimer = setTimeout(() => show(link), OPEN_DELAY);
    });
    link.addEventListener("pointerleave", (event) => { if (event.pointerType !== "touch") closeSoon(); });
    link.addEventListener("click", (event) => {
      const touch = event.pointerType ? event.pointerType === "touch" : lastPointer === "touch" && event.detail > 0;
      if (touch && !(shown && shown.link === link) && bound(link)) {
        event.preventDefault();
        show(link);
      }
    });
  }

  document.addEventListener("pointerdown", (event) => {
    lastPointer = event.pointerType || lastPointer;
    if (shown && !within(event.target)) hide();
  }, true);

  document.addEventListener("focusin", (event) => {
    if (shown && !within(event.target)) hide();
    const link = event.target.closest
      && event.target.closest("a.msg-ref[aria-controls], a[data-passage][aria-controls], .msg-map a[href]");
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
