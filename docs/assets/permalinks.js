// One click on a ¶ or heading permalink copies its full address, and still moves to it.
(() => {
  const status = document.createElement("div");
  status.className = "permalink-status";
  status.setAttribute("role", "status");
  document.body.append(status);

  document.addEventListener("click", async (event) => {
    const link = event.target.closest("a.paragraph-link, a.headerlink");
    if (!link || !navigator.clipboard) return;
    const address = new URL(link.getAttribute("href"), location.href).href;
    try {
      await navigator.clipboard.writeText(address);
      status.textContent = "Link copied: " + address;
    } catch {
      status.textContent = "";  // copying refused; the address bar still shows the link
    }
    clearTimeout(status.timer);
    status.timer = setTimeout(() => { status.textContent = ""; }, 3000);
  });
})();
