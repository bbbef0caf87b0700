"""The 404 page: it says the page was not found and links, by absolute addresses that
hold at any depth, to the essay's first page, its sections, the transcript and the search."""

from conftest import PUBLIC_URL, attribute, selected, soup

SECTION_PATHS = ["context/", "response/", "empty-message/", "interpretation/", "significance/", "conclusion/"]


def not_found_links(site, root: str):
    page = soup(site / "404.html")
    article = selected(page, "article")
    assert selected(page, "title").get_text() == "Page not found - The Silence That Speaks"
    assert selected(article, "h1").get_text() == "Page not found"
    links = {a["href"]: " ".join(a.get_text().split()) for a in article.select("a")}
    search = selected(article, 'form[role="search"]')
    assert search["action"] == root and search["method"] == "get"
    assert selected(search, 'input[type="search"]')["name"] == "q"  # Material's search opens with ?q=
    return links


def test_links_from_the_site_root(built_site):
    links = not_found_links(built_site, "/")
    assert list(links) == ["/", *(f"/{path}" for path in SECTION_PATHS), "/transcript/"]
    assert links["/"].startswith("The Silence That Speaks") and links["/context/"].startswith("The Context")
    assert links["/transcript/"] == "Transcript"


def test_links_below_a_public_path(public_site):
    root = "/" + PUBLIC_URL.split("/", 3)[3]  # "/silence/"
    links = not_found_links(public_site, root)
    assert list(links) == [root, *(root + path for path in SECTION_PATHS), root + "transcript/"]
    # Material's own parts of the page (its style sheets, scripts) are as absolute.
    style_sheets = soup(public_site / "404.html").select("link[rel=stylesheet]")
    assert all(attribute(link, "href").startswith(root) for link in style_sheets)
