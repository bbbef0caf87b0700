// The keyboard reaches what the pointer does, and only what is on screen.
(() => {
  // On a narrow screen the navigation opens from the header's menu button, a <label> for
  // the drawer's checkbox: a label is no Tab stop, so it is made a button. Wide, Material
  // hides it (display: none), which also takes it out of the Tab order.
  const drawer = document.getElementById("__drawer");
  const menu = document.querySelector('.md-header label[for="__drawer"]');
  if (drawer && menu) {
    const expanded = () => menu.setAttribute("aria-expanded", String(drawer.checked));
    menu.setAttribute("role", "button");
    menu.setAttribute("aria-label", "Navigation");
    menu.tabIndex = 0;
    expanded();
    // Material closes the drawer without an event of the checkbox: the state is read again
    // whenever the button is used or reached.
    drawer.addEventListener("change", expanded);
    menu.addEventListener("focus", expanded);
    menu.addEventListener("keydown", (event) => {
      if (event.key === "Enter" || event.key === " ") {
        event.preventDefault();
        menu.click();
      }
    });
  }

  // Material's search results box is a Tab stop of its own, though empty until a search
  // is typed, and Tab closes the search. Its results are reached from the search field
  // with the arrow keys. Chromium makes a scrolling box a Tab stop even without tabindex.
  document.querySelectorAll(".md-search__scrollwrap").forEach((box) => { box.tabIndex = -1; });
})();
