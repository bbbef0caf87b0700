// A transcript message's "Cite": opens, under the message's heading, the page's one
// citation panel (written once, as a template) made out for that message; pressed again,
// or Escape, closes it. The panel's buttons copy as every citation's do (copy.js).
// A range of messages landed on (#msg-49-51) is outlined, as much of it as the page shows.
(() => {
  const RANGE = /^#msg-(\d+)-(\d+)$/;
  const outline = () => {
    for (const item of document.querySelectorAll(".msg-item--in-range")) item.classList.remove("msg-item--in-range");
    const range = RANGE.exec(location.hash);
    if (!range) return;
    const [first, last] = [BigInt(range[1]), BigInt(range[2])];
    for (const item of document.querySelectorAll(".msg-item[data-msg]")) {
      const n = BigInt(item.dataset.msg);
      if (n >= first && n <= last) item.classList.add("msg-item--in-range");
    }
  };
  outline();
  addEventListener("hashchange", outline);
})();

(() => {
  const template = document.getElementById("msg-cite-template");
  if (!template) return;
  // The pages hide the messages' buttons until they can work (essay.css). An attribute,
  // not a class: a class set on <html> restyles every element of the page.
  document.documentElement.dataset.canCite = "";
  const hole = template.dataset.number;
  let open = null;  // the button whose panel is open, and the panel

  const madeOut = (n) => {
    const panel = template.content.firstElementChild.cloneNode(true);
    const texts = document.createTreeWalker(panel, NodeFilter.SHOW_TEXT);
    for (let node = texts.nextNode(); node; node = texts.nextNode()) {
      node.nodeValue = node.nodeValue.replaceAll(hole, n);
    }
    for (const element of [panel, ...panel.querySelectorAll("*")]) {
      for (const attribute of element.attributes) {
        if (attribute.value.includes(hole)) attribute.value = attribute.value.replaceAll(hole, n);
      }
    }
    panel.id = "msg-cite-panel";
    return panel;
  };
  // A range cited has its citation written out, one template each.
  const rangePanel = (range) => {
    const panel = document.getElementById(`msg-cite-range-${range}`).content.firstElementChild.cloneNode(true);
    panel.id = "msg-cite-panel";
    return panel;
  };

  // Each message's button says whether its panel is open, from the first it opens.
  const close = () => {
    if (!open) return;
    open.panel.remove();
    open.button.setAttribute("aria-expanded", "false");
    open.button.removeAttribute("aria-controls");
    open = null;
  };

  document.addEventListener("click", (event) => {
    const button = event.target.closest("button.msg-cite-button");
    if (!button) return;
    const again = open && open.button === button;
    close();
    if (again) return;
    const panel = button.dataset.range ? rangePanel(button.dataset.range) : madeOut(button.closest(".msg-item").dataset.msg);
    // Right after the heading's line, so that the next Tab stop is the panel's first.
    button.closest(".msg-head").after(panel);
    // A menu of citation styles (cite-style.js) names the style chosen, as every other does.
    const chosen = document.documentElement.dataset.citeStyle;
    for (const select of panel.querySelectorAll("select.cite-style")) if (chosen) select.value = chosen;
    button.setAttribute("aria-expanded", "true");
    button.setAttribute("aria-controls", panel.id);
    open = { button, panel };
  });

  // A range landed on (#msg-49-51) gets a "Cite" of its own beside its first message's.
  const rangeButton = () => {
    for (const button of document.querySelectorAll("button.msg-cite-range")) {
      if (open && open.button === button) close();
      button.remove();
    }
    const range = /^#msg-(\d+)-(\d+)$/.exec(location.hash);
    const cited = range && document.getElementById(`msg-cite-range-${range[1]}-${range[2]}`);
    const own = cited && document.querySelector(`.msg-item[data-msg="${range[1]}"] .msg-cite-button`);
    if (!own) return;
    const button = Object.assign(document.createElement("button"), {
      className: "msg-cite-button msg-cite-range", textContent: `Cite ${range[1]}\u2013${range[2]}`,
    });
    button.dataset.range = `${range[1]}-${range[2]}`;
    own.after(button);
  };
  rangeButton();
  addEventListener("hashchange", rangeButton);

  document.addEventListener("keydown", (event) => {
    if (event.key !== "Escape" || !open || !open.panel.contains(document.activeElement)) return;
    const button = open.button;
    close();
    button.focus();
  });
})();
