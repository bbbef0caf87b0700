// One click copies: a ¶ or heading permalink copies its full address (and still moves
// to it); a "Copy" button under a citation copies that citation.
(() => {
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
    if (button) copy(button.dataset.copy, "Citation copied");
  });
})();
