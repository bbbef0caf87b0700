// One click copies: a ¶ or heading permalink copies its full address (and still moves
// to it); a "Copy" button under a citation copies that citation; a transcript message's
// "Copy [msg N]" copies its tag, for the essay's text.
(() => {
  // The pages hide the tags' buttons until they can work (essay.css). An attribute, not a
  // class: a class set on <html> restyles every element of the page.
  if (navigator.clipboard) document.documentElement.dataset.canCopy = "";

  const status = document.createElement("div");
  status.className = "copy-status";
  status.setAttribute("role", "status");
  document.body.append(status);

  const say = (text) => {
    status.textContent = text;
    clearTimeout(status.timer);
    status.timer = setTimeout(() => { status.textContent = ""; }, 3000);
  };

  const copy = async (text, done) => {
    if (!navigator.clipboard) return;
    try {
      await navigator.clipboard.writeText(text);
      say(done);
    } catch {
      say("");  // copying refused: the address bar, or the text on the page, still has it
    }
  };

  document.addEventListener("click", (event) => {
    const link = event.target.closest("a.paragraph-link, a.headerlink");
    if (link) {
      const address = new URL(link.getAttribute("href"), location.href).href;
      copy(address, "Link copied: " + address);
      return;
    }
    const button = event.target.closest("button.cite-copy");
    if (button) {
      copy(button.dataset.copy, "Citation copied");
      return;
    }
    // The number is the entry's: one listener and no attribute per button; a range's
    // button says its tag.
    const tag = event.target.closest("button.msg-tag");
    if (tag) {
      const text = tag.dataset.tag || `[msg ${tag.closest(".msg-item").dataset.msg}]`;
      copy(text, "Tag copied: " + text);
    }
  });
})();
