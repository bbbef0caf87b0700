// The keyboard reaches what the pointer does, and only what is on screen.
(() => {
  // On a narrow screen the navigation opens from the header's menu, a <label> for a
  // checkbox: no Tab stop, and no element that may be given a button's role. A button
  // takes its place and works the checkbox; essay.css hides it on a wide screen, where
  // Material hides the label.
  const menu = document.querySelector('.md-header label[for="__drawer"]');
  const drawer = document.getElementById("__drawer");
  if (menu && drawer) {
    const button = document.createElement("button");
    button.type = "button";
    button.className = `${menu.className} md-header__menu`;
    button.setAttribute("aria-label", "Navigation");
    button.append(...menu.childNodes);
    // Material opens and closes the drawer without an event of the checkbox: the state is
    // read again whenever the button is used or reached.
    const expanded = () => button.setAttribute("aria-expanded", String(drawer.checked));
    expanded();
    drawer.addEventListener("change", expanded);
    button.addEventListener("focus", expanded);
    button.addEventListener("click", () => {
      drawer.click();
      expanded();
    });
    menu.replaceWith(button);
  }

  // In the drawer, the page's name opens its table of contents: a label too, made a Tab
  // stop as Material makes the labels of its nested sections. Material clicks a focused
  // label on Enter; Space, as on a button, does too.
  document.querySelectorAll('.md-nav--primary label[for="__toc"]').forEach((label) => {
    label.tabIndex = 0;
    label.addEventListener("keydown", (event) => {
      if (event.key === " ") {
        event.preventDefault();
        label.click();
      }
    });
  });

  // Material makes its search results box a Tab stop, even while the search is closed or
  // has found nothing. Without tabindex the browser makes it one only while it scrolls,
  // which essay.css allows only while the search is open: then it holds results.
  document.querySelectorAll(".md-search__scrollwrap[tabindex]").forEach((box) => box.removeAttribute("tabindex"));
})();
