"""The essay's citations: metadata from the settings, the styles, the exchange formats and
the <head> metadata, each read back with a parser where the format has one."""

from __future__ import annotations

import dataclasses
import datetime
import json
import re
from typing import Any

import pytest
from bs4 import BeautifulSoup
from mkdocs.utils.yaml import yaml_load

from conftest import ESSAY, found, selected
from essaycite.casing import sentence_case
from essaycite.exchange import biblatex, bibtex, bibtex_text, csl_json, ris
from essaycite.formats import apa, chicago, downloads, message_references, mla, references
from essaycite.head import dublin_core_tags, highwire_tags, json_ld, json_ld_script_text
from essaycite.metadata import MetadataError, Part, Person
from essaycite.work import citation_key, ordinal
from sitebuild.settings import SettingsError, essay_metadata

TITLE = "The Silence That Speaks: An Empty Message in an AI-Assisted Coding Session"
APA_TITLE = "The silence that speaks: An empty message in an AI-assisted coding session"
SITE = "https://example.org/essay/"  # below a path, as a project site on GitHub Pages is
CONFIG: dict[str, Any] = {
    "site_name": "The Silence That Speaks",
    "site_url": SITE,
    "site_description": "An essay on one empty message.",
    "theme": {"name": "material", "language": "en"},
    "extra": {"essay": {"title": TITLE, "published": datetime.date(2026, 12, 2), "edition": 1}},
}
META = essay_metadata(CONFIG)
SECTION = META.part("The Context: A Model That Produces Garbage", "context/")
QUESTION = META.part("The Empty Message: What Did the User Mean?", "empty-message/", "p-what-did-it-mean")
NAMED = dataclasses.replace(META, authors=(Person("Doe", "Jane Q."),), site_name="Essays Online")


def config(**changes) -> dict:
    essay = {**CONFIG["extra"]["essay"], **changes.pop("essay", {})}
    return {**CONFIG, **changes, "extra": {"essay": essay}}


# --- metadata -------------------------------------------------------------------------

def test_metadata_from_the_settings():
    assert META.title == TITLE
    assert META.published == datetime.date(2026, 12, 2)
    assert META.edition == 1
    assert META.url == SITE
    assert META.site_name == "The Silence That Speaks"
    assert META.authors == ()  # no site_author: the essay is unsigned
    assert META.language == "en"


def test_metadata_from_mkdocs_yml():
    settings = yaml_load((ESSAY / "mkdocs.yml").read_text(encoding="utf-8"))
    meta = essay_metadata(settings)
    assert meta.title == TITLE
    assert meta.published == datetime.date(2026, 12, 2)
    assert meta.edition == 1
    assert meta.authors == ()  # no site_author: the essay is unsigned
    assert meta.url.startswith(("http://", "https://")) and meta.url.endswith("/")


@pytest.mark.parametrize("value, expected", [
    ("2026-12-02", datetime.date(2026, 12, 2)),  # quoted in YAML
    (datetime.datetime(2026, 12, 2, 9, 30), datetime.date(2026, 12, 2)),
])
def test_publication_date_forms(value, expected):
    assert essay_metadata(config(essay={"published": value})).published == expected


@pytest.mark.parametrize("changes, setting", [
    ({"essay": {"published": None}}, "extra.essay.published"),
    ({"essay": {"published": "2026-13-02"}}, "extra.essay.published"),
    ({"essay": {"published": "2 December 2026"}}, "extra.essay.published"),
    ({"essay": {"edition": None}}, "extra.essay.edition"),
    ({"essay": {"edition": 0}}, "extra.essay.edition"),
    ({"essay": {"edition": "first"}}, "extra.essay.edition"),
    ({"essay": {"edition": True}}, "extra.essay.edition"),
    ({"essay": {"title": ""}}, "extra.essay.title"),
    ({"site_url": None}, "site_url"),
    ({"site_url": "127.0.0.1:8000/"}, "site_url"),
])
def test_malformed_metadata_names_the_setting(changes, setting):
    with pytest.raises((SettingsError, MetadataError), match=re.escape(setting)):
        essay_metadata(config(**changes))


def test_metadata_details():
    assert essay_metadata(config(essay={"edition": "2"})).edition == 2
    assert essay_metadata(config(site_url="https://example.org/essay")).url == SITE
    assert essay_metadata(config(site_author="")).authors == ()
    assert essay_metadata(config(site_author="Jane Q. Doe")).authors == (Person("Doe", "Jane Q."),)
    assert essay_metadata(config(site_author="Doe, Jane")).authors == (Person("Doe", "Jane"),)
    # "Anonymous" is a name like any other now: a work signed so is cited so.
    assert essay_metadata(config(site_author="Anonymous")).authors == (Person("Anonymous"),)
    assert essay_metadata(config(site_author="  ")).authors == ()
    assert essay_metadata(config(essay={"language": "en-GB"})).language == "en-GB"
    with pytest.raises(dataclasses.FrozenInstanceError):
        META.edition = 2  # type: ignore[misc]  # the assignment the frozen metadata must refuse


def test_section_urls_stay_below_the_site():
    assert META.url_for("") == SITE
    assert META.url_for("context/") == SITE + "context/"
    assert META.url_for("/context/") == SITE + "context/"
    assert META.url_for("context/", "p-the-initial") == SITE + "context/#p-the-initial"
    assert Part("The Context: A Model That Produces Garbage", SITE + "context/") == SECTION


# --- the styles: exact entries ------------------------------------------------------------

# The forms of a page on a website, as citeproc-js renders them with the official CSL
# styles (test_citation_processors.py renders them and compares every case).
@pytest.mark.parametrize("style, part, expected", [
    (apa, None, f"{APA_TITLE}. (2026, December 2). {SITE}"),
    (apa, SECTION, "The context: A model that produces garbage. (2026, December 2). "
                   f"{TITLE}. {SITE}context/"),
    (mla, None, f"{TITLE}. 1st ed., 2 Dec. 2026, {SITE}."),
    (mla, SECTION, f"\u201cThe Context: A Model That Produces Garbage.\u201d {TITLE}, 1st ed., "
                   f"2 Dec. 2026, {SITE}context/."),
    (chicago, None, f"\u201c{TITLE}.\u201d 1st ed. December 2, 2026. {SITE}."),
    # Chicago: for a page of a site with no author, the site's name stands first.
    (chicago, SECTION, f"{TITLE}. \u201cThe Context: A Model That Produces Garbage.\u201d 1st ed. "
                       f"December 2, 2026. {SITE}context/."),
])
def test_unsigned_entries_start_with_the_title(style, part, expected):
    assert style(META, part).text == expected


@pytest.mark.parametrize("style, part, expected", [
    (apa, None, f"Doe, J. Q. (2026, December 2). {APA_TITLE}. Essays Online. {SITE}"),
    (apa, SECTION, "Doe, J. Q. (2026, December 2). The context: A model that produces garbage. "
                   f"{TITLE}. {SITE}context/"),
    (mla, None, f"Doe, Jane Q. \u201c{TITLE}.\u201d Essays Online, 1st ed., 2 Dec. 2026, {SITE}."),
    (chicago, SECTION, f"Doe, Jane Q. \u201cThe Context: A Model That Produces Garbage.\u201d 1st ed. {TITLE}, "
                       f"December 2, 2026. {SITE}context/."),
])
def test_entries_with_a_named_author(style, part, expected):
    assert style(NAMED, part).text == expected


def test_a_message_is_cited_by_its_permanent_address_without_the_essays_author():
    cited = message_references(NAMED, 5855)
    url = SITE + "transcript/#msg-5855"
    assert list(cited) == ["APA", "MLA", "Chicago", "BibTeX", "biblatex"]
    assert cited["APA"].text == f"Message 5855 of the session transcript. (2026, December 2). {TITLE}. {url}"
    assert cited["MLA"].text.startswith("\u201cMessage 5855 of the Session Transcript.\u201d")
    for reference in cited.values():
        assert url in reference.text and "Doe" not in reference.text  # the session's words, not the author's
    assert message_references(META, 12, "transcript/2/")["Chicago"].text.endswith(SITE + "transcript/2/#msg-12.")


# --- the styles: what every entry carries -------------------------------------------------

STYLE_FACTS = {
    # style: (its form of the essay title, the date, the edition: none in APA's web page form)
    "APA": (APA_TITLE, "(2026, December 2)", ""),
    "MLA": (TITLE, "2 Dec. 2026", "1st ed.,"),
    "Chicago": (TITLE, "December 2, 2026", "1st ed."),
}

# What each style sets in italics: APA the page's own title, MLA the site (or a work
# that has none), Chicago nothing (it quotes a page).
ITALICS = {"APA": lambda part: [sentence_case(part.title) if part else APA_TITLE],
           "MLA": lambda part: [TITLE], "Chicago": lambda part: []}


@pytest.mark.parametrize("part", [None, SECTION, QUESTION], ids=["essay", "section", "anchor"])
@pytest.mark.parametrize("name", sorted(STYLE_FACTS))
def test_each_entry_carries_url_title_date_and_edition(name, part):
    reference = references(META, part)[name]
    html = BeautifulSoup(reference.html, "html.parser")
    title, date, edition = STYLE_FACTS[name]
    url = part.url if part else META.url
    assert [a["href"] for a in html.find_all("a")] == [url]
    assert reference.text.count(url) == 1
    assert reference.text.endswith(url if name == "APA" else url + ".")  # APA puts no period after a URL
    assert [i.get_text() for i in html.find_all("i")] == ITALICS[name](part)
    assert html.get_text() == reference.text
    assert date in reference.text and edition in reference.text
    assert "Anonymous" not in reference.text
    if part:
        section = sentence_case(part.title) if name == "APA" else part.title
        assert section in reference.text and TITLE in reference.text  # the page, and its site
    else:
        assert title in reference.text


@pytest.mark.parametrize("style", [apa, mla, chicago])
def test_a_title_ending_in_a_question_mark_takes_no_period(style):
    text = style(META, QUESTION).text
    assert "?" in text and not re.search(r"\?[.,]", text)
    question_essay = dataclasses.replace(META, title="Why Speak?")
    assert not re.search(r"\?[.,]", style(question_essay).text)


def test_html_escapes_titles_and_urls():
    meta = dataclasses.replace(META, title='Tags <b>bold</b> & "quotes"')
    part = Part("A <script>", SITE + "a/?x=1&y=2")
    for style in (apa, mla, chicago):
        html = style(meta, part).html
        soup = BeautifulSoup(html, "html.parser")
        assert not soup.find_all(["b", "script"])
        assert selected(soup, "a")["href"] == part.url
        assert "&amp;" in html


@pytest.mark.parametrize("edition, label", [(2, "2nd ed."), (3, "3rd ed."), (4, "4th ed."), (11, "11th ed."),
                                            (12, "12th ed."), (13, "13th ed."), (21, "21st ed."), (112, "112th ed.")])
def test_every_format_names_the_edition(edition, label):
    meta = dataclasses.replace(META, edition=edition)
    for style in (mla, chicago):  # APA's web page form has no edition; its date tells them apart
        assert label in style(meta).text and label in style(meta, SECTION).text
    assert parse_bibtex(bibtex(meta))[2]["howpublished"] == f"{ordinal(edition)} edition"
    assert parse_bibtex(biblatex(meta, SECTION))[2]["version"] == str(edition)
    assert ("ET", str(edition)) in parse_ris(ris(meta))
    assert json.loads(csl_json(meta))[0]["edition"] == str(edition)


def test_ordinals():
    assert [ordinal(n) for n in (1, 2, 3, 4, 10, 11, 12, 13, 21, 101, 111)] == [
        "1st", "2nd", "3rd", "4th", "10th", "11th", "12th", "13th", "21st", "101st", "111th"]


@pytest.mark.parametrize("title, expected", [
    ("The Assistant's Response: Action Without Acknowledgment",
     "The assistant's response: Action without acknowledgment"),
    ("The Empty Message: What Did the User Mean?", "The empty message: What did the user mean?"),
    ("What I Saw: NaN Outputs on 8× GPUs", "What I saw: NaN outputs on 8× GPUs"),
    ("A Note on Blackwell", "A note on Blackwell"),  # a proper noun, listed
])
def test_sentence_case(title, expected):
    assert sentence_case(title, keep=("Blackwell",)) == expected


def test_proper_nouns_keep_their_capitals_in_apa():
    meta = dataclasses.replace(META, title="Running Qwen on Blackwell", proper_nouns=("Qwen", "Blackwell"))
    assert apa(meta).text.startswith("Running Qwen on Blackwell. (2026, December 2).")
    assert parse_bibtex(bibtex(meta))[2]["title"] == "Running {Qwen} on {Blackwell}"


# --- BibTeX --------------------------------------------------------------------------------

def parse_bibtex(text: str) -> tuple[str, str, dict[str, str]]:
    """(type, key, fields) of one entry; braces are counted as BibTeX counts them,
    backslash or not, and a field's value is what lies inside its outer braces."""
    head = re.match(r"\s*@(\w+)\{([^,\s{}]+),", text)
    assert head, text
    position, fields = head.end(), {}
    while field := re.compile(r"\s*([a-z]+)\s*=\s*").match(text, position):
        position = field.end()
        if text[position] == "{":
            depth = 0
            for end in range(position, len(text)):
                depth += {"{": 1, "}": -1}.get(text[end], 0)
                if depth == 0:
                    break
            assert depth == 0, f"unbalanced braces in {field.group(1)}"
            value, position = text[position + 1:end], end + 1
        else:
            macro = found(re.compile(r"[a-z]+").match(text, position), f"the value of {field.group(1)}")
            value, position = macro.group(), macro.end()
        assert field.group(1) not in fields
        fields[field.group(1)] = value
        comma = re.compile(r"\s*,").match(text, position)
        if not comma:
            break
        position = comma.end()
    assert re.fullmatch(r"\s*\}\s*", text[position:]), text[position:]
    return head.group(1), head.group(2), fields


def plain(value: str) -> str:
    """A BibTeX value as text: commands back to characters, protecting braces dropped."""
    for command, char in ((r"\textbackslash{}", "\\"), (r"\textbraceleft{}", "{"), (r"\textbraceright{}", "}"),
                          (r"\textasciitilde{}", "~"), (r"\textasciicircum{}", "^")):
        value = value.replace(command, "\0" + str(ord(char)) + "\0")
    value = re.sub(r"\\([&%$#_])", r"\1", value).replace("{", "").replace("}", "")
    return re.sub(r"\0(\d+)\0", lambda m: chr(int(m.group(1))), value)


def test_bibtex_entry_of_the_essay():
    kind, key, fields = parse_bibtex(bibtex(META))
    assert (kind, key) == ("misc", "the-silence-that-speaks-2026")
    assert plain(fields["title"]) == TITLE
    assert "{AI}" in fields["title"]  # kept capitalised by styles that lower-case titles
    assert "author" not in fields  # the essay names no author; styles start with the title
    assert fields["key"] == "The Silence That Speaks"  # what plain sorts by, apalike and natbib label by
    assert fields["howpublished"] == "1st edition"
    assert (fields["year"], fields["month"]) == ("2026", "dec")
    assert fields["note"] == f"\\url{{{SITE}}}"  # plain and apalike know no url field
    assert sorted(fields) == ["howpublished", "key", "month", "note", "title", "year"]


def test_bibtex_entry_of_a_section():
    _, key, fields = parse_bibtex(bibtex(META, QUESTION))
    assert key == "the-silence-that-speaks-2026-empty-message-p-what-did-it-mean"
    assert plain(fields["title"]) == QUESTION.title
    assert fields["key"] == "The Empty Message"
    site = re.fullmatch(r"\\emph\{(.*)\}, 1st edition", fields["howpublished"])
    assert site and plain(site.group(1)) == TITLE
    assert fields["note"] == f"\\url{{{QUESTION.url}}}"


def test_biblatex_entries():
    kind, key, fields = parse_bibtex(biblatex(META, QUESTION))
    assert (kind, key) == ("online", citation_key(META, QUESTION))  # the same keys as the BibTeX entries
    assert plain(fields["title"]) == QUESTION.title and fields["shorttitle"] == "The Empty Message"
    assert plain(fields["organization"]) == TITLE  # the site it is part of
    assert (fields["version"], fields["date"], fields["url"]) == ("1", "2026-12-02", QUESTION.url)
    assert "author" not in fields
    essay = parse_bibtex(biblatex(NAMED))[2]
    assert essay["author"] == "Doe, Jane Q." and essay["organization"] == "Essays Online"


def test_bibtex_author_when_named():
    fields = parse_bibtex(bibtex(NAMED))[2]
    assert fields["author"] == "Doe, Jane Q."
    assert "key" not in fields  # the author sorts and labels the entry
    assert fields["howpublished"] == "\\emph{Essays Online}, 1st edition"


def test_bibtex_keys_are_stable_distinct_and_safe():
    parts = [None, SECTION, QUESTION, META.part("Conclusion", "conclusion/")]
    keys = [citation_key(META, part) for part in parts]
    assert keys == [citation_key(META, part) for part in parts]
    assert len(set(keys)) == len(keys)
    assert all(re.fullmatch(r"[a-z0-9][a-z0-9-]*", key) for key in keys)
    assert [parse_bibtex(bibtex(META, part))[1] for part in parts] == keys
    assert [parse_bibtex(biblatex(META, part))[1] for part in parts] == keys
    assert citation_key(META, META.message(5855)) == "the-silence-that-speaks-2026-transcript-msg-5855"


@pytest.mark.parametrize("title", [
    "50% of {braces} & $money$ #1 under_score ~tilde^ back\\slash",
    "A lone { brace",
    "A lone } brace",
    "Line\nbreaks\tand  spaces",
])
def test_bibtex_escapes_special_characters(title):
    meta = dataclasses.replace(META, title=title)
    fields = parse_bibtex(bibtex(meta))[2]  # parses: braces balance
    assert plain(fields["title"]) == " ".join(title.split())
    assert not re.search(r"(?<!\\)[%&$#_]", fields["title"])


def test_bibtex_text_protects_words_with_inner_capitals():
    assert bibtex_text("NaN on GPUs with AI") == "{NaN} on {GPUs} with {AI}"


def test_bibtex_url_is_encoded_only_where_needed():
    part = Part("Odd", SITE + "a b/{x}#p-1")
    assert parse_bibtex(bibtex(META, part))[2]["note"] == "\\url{" + SITE + "a%20b/%7Bx%7D#p-1}"
    assert parse_bibtex(biblatex(META, part))[2]["url"] == SITE + "a%20b/%7Bx%7D#p-1"


# --- RIS -----------------------------------------------------------------------------------

def parse_ris(text: str) -> list[tuple[str, str]]:
    assert text.endswith("\r\n")
    lines = text[:-2].split("\r\n")
    pairs = []
    for line in lines:
        match = re.fullmatch(r"([A-Z][A-Z0-9])  - (.*)", line)
        assert match, repr(line)
        pairs.append((match.group(1), match.group(2)))
    assert pairs[0] == ("TY", "ELEC") and pairs[-1] == ("ER", "")
    return pairs


def test_ris_record_of_the_essay():
    pairs = parse_ris(ris(META))
    fields = dict(pairs)
    assert fields["TI"] == TITLE
    assert "T2" not in fields  # the site's name is only the essay's short title
    assert "AU" not in fields
    assert (fields["PY"], fields["DA"]) == ("2026", "2026/12/02")
    assert fields["ET"] == "1"
    assert fields["UR"] == SITE
    assert fields["LA"] == "en"
    assert fields["ID"] == citation_key(META)
    assert len(fields) == len(pairs)


def test_ris_record_of_a_section_and_with_an_author():
    fields = dict(parse_ris(ris(NAMED, SECTION)))
    assert fields["TI"] == SECTION.title
    assert fields["T2"] == TITLE
    assert fields["UR"] == SECTION.url
    assert fields["AU"] == "Doe, Jane Q."
    assert dict(parse_ris(ris(NAMED)))["T2"] == "Essays Online"


def test_ris_record_of_a_message():
    fields = dict(parse_ris(ris(NAMED, NAMED.message(5855))))
    assert fields["TI"] == "Message 5855 of the Session Transcript"
    assert fields["T2"] == TITLE and fields["UR"] == SITE + "transcript/#msg-5855"
    assert "AU" not in fields


def test_ris_values_stay_on_one_line():
    meta = dataclasses.replace(META, title="Two\nlines\r\nhere")
    assert dict(parse_ris(ris(meta)))["TI"] == "Two lines here"


# --- CSL-JSON --------------------------------------------------------------------------------

def test_csl_json_of_the_essay():
    [item] = json.loads(csl_json(META))
    assert item == {
        "id": "the-silence-that-speaks-2026",
        "type": "webpage",
        "title": TITLE,
        "edition": "1",
        "issued": {"date-parts": [[2026, 12, 2]]},
        "URL": SITE,
        "language": "en",
    }


def test_csl_json_of_a_section_with_an_author():
    essay, item = json.loads(csl_json(NAMED, [QUESTION]))
    assert essay["container-title"] == "Essays Online"
    assert item["title"] == QUESTION.title
    assert item["container-title"] == TITLE
    assert item["URL"] == QUESTION.url
    assert item["author"] == [{"family": "Doe", "given": "Jane Q."}]
    assert item["id"] == citation_key(NAMED, QUESTION)


def test_downloads_hold_the_essay_and_every_section():
    parts = [SECTION, QUESTION]
    files = {download.filename: download for download in downloads(META, parts)}
    assert sorted(files) == ["essay-biblatex.bib", "essay.bib", "essay.json", "essay.ris"]
    urls = [SITE, SECTION.url, QUESTION.url]
    entries = re.split(r"\n(?=@)", files["essay.bib"].text)
    assert [parse_bibtex(entry)[2]["note"] for entry in entries] == [f"\\url{{{url}}}" for url in urls]
    entries = re.split(r"\n(?=@)", files["essay-biblatex.bib"].text)
    assert [parse_bibtex(entry)[2]["url"] for entry in entries] == urls
    records = [record + "ER  - \r\n" for record in files["essay.ris"].text.split("ER  - \r\n")[:-1]]
    assert [dict(parse_ris(record))["UR"] for record in records] == urls
    items = json.loads(files["essay.json"].text)
    assert [item["URL"] for item in items] == urls
    assert [item["id"] for item in items] == [citation_key(META, part) for part in [None, *parts]]
    assert [item.get("container-title") for item in items] == [None, TITLE, TITLE]
    assert [d.label for d in downloads(META)] == ["BibTeX", "biblatex", "RIS", "CSL-JSON"]


# --- <head> metadata ---------------------------------------------------------------------------

# citation_author only when the settings name the author: Google Scholar asks for real authors.
HIGHWIRE_REQUIRED = ["citation_title", "citation_publication_date", "citation_online_date",
                     "citation_fulltext_html_url", "citation_language", "citation_pdf_url"]


def test_highwire_tags():
    tags = highwire_tags(META, pdf_url="essay.pdf", fulltext_url="print/")
    names = [name for name, _ in tags]
    assert sorted(names) == sorted(HIGHWIRE_REQUIRED)  # each present, once
    content = dict(tags)
    assert content["citation_title"] == TITLE
    assert "citation_author" not in content  # unsigned: no name is invented
    assert content["citation_publication_date"] == content["citation_online_date"] == "2026/12/02"
    assert content["citation_fulltext_html_url"] == SITE + "print/"
    assert content["citation_pdf_url"] == SITE + "essay.pdf"
    assert content["citation_language"] == "en"
    assert all(value.strip() for value in content.values())


def test_highwire_tags_without_a_pdf_and_with_an_author():
    content = dict(highwire_tags(NAMED))
    assert "citation_pdf_url" not in content
    assert content["citation_fulltext_html_url"] == SITE
    assert content["citation_author"] == "Jane Q. Doe"


def test_dublin_core_tags():
    content = dict(dublin_core_tags(META))
    assert content["DC.title"] == TITLE
    assert "DC.creator" not in content
    assert datetime.date.fromisoformat(content["DC.date"]) == META.published
    assert content["DC.identifier"] == SITE
    assert content["DC.language"] == "en"
    assert content["DC.description"] == "An essay on one empty message."


def test_json_ld_parses_and_lists_the_sections():
    parts = [META.part("Introduction", "", "introduction"), SECTION, QUESTION]
    data = json.loads(json_ld_script_text(json_ld(META, parts, pdf_url="essay.pdf")))
    assert data["@context"] == "https://schema.org"
    assert data["@type"] == "ScholarlyArticle"
    assert data["headline"] == data["name"] == TITLE
    assert "author" not in data
    assert json_ld(NAMED)["author"] == {"@type": "Person", "name": "Jane Q. Doe"}
    assert datetime.date.fromisoformat(data["datePublished"]) == META.published
    assert data["version"] == "1"
    assert data["url"] == SITE
    assert [(p["position"], p["name"], p["url"]) for p in data["hasPart"]] == [
        (1, "Introduction", SITE + "#introduction"),
        (2, SECTION.title, SITE + "context/"),
        (3, QUESTION.title, SITE + "empty-message/#p-what-did-it-mean"),
    ]
    assert data["encoding"]["contentUrl"] == SITE + "essay.pdf"


def test_json_ld_script_text_cannot_close_its_element():
    meta = dataclasses.replace(META, title="</script><!-- & more")
    text = json_ld_script_text(json_ld(meta))
    assert "<" not in text and ">" not in text and "&" not in text
    assert json.loads(text)["headline"] == meta.title
    page = BeautifulSoup(f'<script type="application/ld+json">{text}</script><p>after</p>', "html.parser")
    assert json.loads(found(selected(page, "script").string, "the script's text"))["name"] == meta.title
