"""The site's settings under `extra`: defaults, checks, and the messages that name a bad one."""

import datetime
import re

import pytest

from sitebuild.settings import EssaySettings, SettingsError, TranscriptSettings, essay_metadata, read_settings


def transcript_settings(values):
    return read_settings(TranscriptSettings, values, "extra.transcript")


def test_the_transcript_settings_have_defaults():
    settings = transcript_settings({})
    assert (settings.source, settings.folder, settings.messages_per_page, settings.context, settings.message_chars,
            settings.search, settings.redact, settings.redact_patterns, settings.redact_allow,
            settings.render_in_worker) == (
        "docs/transcript.jsonl", "transcript", 500, 0, 5000, True, True, {}, (), True)
    assert transcript_settings(None) == settings
    assert transcript_settings({"context": "all"}).context is None
    assert transcript_settings({"folder": "/pages/transcript/"}).folder == "pages/transcript"


@pytest.mark.parametrize("values, expected", [
    ({"context": -1}, "extra.transcript.context: expected a whole number of 0 or more, or all, found -1"),
    ({"context": "some"}, "extra.transcript.context: expected a whole number"),
    ({"messages_per_page": 0}, "extra.transcript.messages_per_page: expected a whole number of 1 or more, found 0"),
    ({"message_chars": True}, "extra.transcript.message_chars: expected a whole number"),
    ({"search": "yes"}, "extra.transcript.search: expected true or false, found 'yes'"),
    ({"folder": ""}, "extra.transcript.folder: expected a folder name"),
    ({"folder": "../escape"}, "extra.transcript.folder: expected a folder inside the site"),
    ({"folder": ".hidden"}, "extra.transcript.folder: expected a folder inside the site"),
    ({"redact_allow": "some-key"}, "extra.transcript.redact_allow: expected a list of strings, found 'some-key'"),
    ({"redact_patterns": {"api": "(unclosed"}},
     "extra.transcript.redact_patterns: api: not a valid regular expression"),
    ({"mesages_per_page": 3},
     "extra.transcript: unknown setting 'mesages_per_page'; did you mean messages_per_page?"),
    ({"colour": "red"}, "extra.transcript: unknown setting 'colour' (known: source, folder,"),
    ("all", "extra.transcript: expected a mapping of settings, found 'all'"),
])
def test_a_bad_transcript_setting_is_named(values, expected):
    with pytest.raises(SettingsError, match="^" + re.escape("mkdocs.yml: " + expected)):
        transcript_settings(values)


def test_the_essay_settings_are_checked_and_required_ones_asked_for():
    values = {"title": "An Essay", "published": "2026-12-02", "edition": 2, "sections": ["index.md"]}
    essay = read_settings(EssaySettings, values, "extra.essay")
    assert (essay.published, essay.edition, essay.sections, essay.pdf) == (
        datetime.date(2026, 12, 2), 2, ("index.md",), None)
    bad_changes: list[tuple[dict[str, object], str]] = [
        ({"sections": []}, "extra.essay.sections: expected the essay's pages in reading order"),
        ({"published": "soon"}, "extra.essay.published: expected a date such as 2026-12-02, found 'soon'"),
        ({"edition": 0}, "extra.essay.edition: expected a whole number of 1 or more, found 0"),
        ({"sectons": ["index.md"]}, "extra.essay: unknown setting 'sectons'; did you mean sections?"),
    ]
    for changed, expected in bad_changes:
        with pytest.raises(SettingsError, match="^" + re.escape("mkdocs.yml: " + expected)):
            read_settings(EssaySettings, {**values, **changed}, "extra.essay")
    with pytest.raises(SettingsError, match=r"^mkdocs.yml: extra.essay.title: required$"):
        read_settings(EssaySettings, {k: v for k, v in values.items() if k != "title"}, "extra.essay")


ESSAY = {"title": "An Essay", "published": "2026-12-02", "edition": 2, "sections": ["index.md"]}


@pytest.mark.parametrize("pdf", ["essay.pdf", "files/essay v2.pdf", "https://cdn.example.org/essay.pdf",
                                 "http://example.org/essay.pdf?edition=2"])
def test_the_pdf_is_a_path_in_the_site_or_an_http_address(pdf):
    assert read_settings(EssaySettings, {**ESSAY, "pdf": pdf}, "extra.essay").pdf == pdf


@pytest.mark.parametrize("pdf", [
    "javascript:alert(1)", " javascript:alert(1)", "JavaScript:alert(1)", "data:application/pdf;base64,AA",
    "../../../etc/passwd", "files/../../essay.pdf", "%2e%2e/essay.pdf", "/essay.pdf", "//cdn.example.org/essay.pdf",
    "https:/essay.pdf", "ftp://example.org/essay.pdf", "files\\essay.pdf", "", 3,
])
def test_a_pdf_outside_the_site_or_not_on_the_web_is_refused(pdf):
    expected = ("mkdocs.yml: extra.essay.pdf: expected a path inside the site, such as essay.pdf, or an http(s) "
                f"address, found {pdf!r}")
    with pytest.raises(SettingsError, match="^" + re.escape(expected) + "$"):
        read_settings(EssaySettings, {**ESSAY, "pdf": pdf}, "extra.essay")


def test_a_quoted_whole_number_is_read():
    assert read_settings(EssaySettings, {**ESSAY, "edition": "12"}, "extra.essay").edition == 12
    assert transcript_settings({"messages_per_page": " 12 "}).messages_per_page == 12


# Digits that str.isdigit takes and int() refuses (²) or reads as another number (١٢, １２).
@pytest.mark.parametrize("value", ["²", "1²", "١٢", "１２", "+1", "1_000"])
def test_a_whole_number_is_written_in_ascii_digits(value):
    with pytest.raises(SettingsError, match="^" + re.escape(
            f"mkdocs.yml: extra.essay.edition: expected a whole number of 1 or more, found {value!r}") + "$"):
        read_settings(EssaySettings, {**ESSAY, "edition": value}, "extra.essay")
    with pytest.raises(SettingsError, match="^" + re.escape(
            f"mkdocs.yml: extra.transcript.context: expected a whole number of 0 or more, or all, found {value!r}")):
        transcript_settings({"context": value})


@pytest.mark.parametrize("name, value", [
    ("title", "An \ud800 Essay"),
    ("proper_nouns", ["Blackwell", "\udcff"]),
    ("authors", [{"family": "Smith", "given": "\ud800"}]),
    ("sections", ["index.md", "\ud800.md"]),
    ("pdf", "\ud800.pdf"),
])
def test_text_that_utf8_cannot_encode_is_refused_by_name(name, value):
    expected = f"mkdocs.yml: extra.essay.{name}: expected text that UTF-8 can encode, found {value!r}"
    with pytest.raises(SettingsError) as raised:
        read_settings(EssaySettings, {**ESSAY, name: value}, "extra.essay")
    assert str(raised.value) == expected
    assert "\n" not in expected and expected.encode("utf-8")  # a line the build can print


@pytest.mark.parametrize("name", ["site_name", "site_description", "site_author"])
def test_a_site_setting_that_utf8_cannot_encode_is_refused_by_name(name):
    config = {"site_url": "https://example.org/", name: "Ann \ud800", "extra": {"essay": ESSAY}}
    with pytest.raises(SettingsError, match="^" + re.escape(f"mkdocs.yml: {name}: expected text that UTF-8 can encode, "
                                                            "found 'Ann \\ud800'") + "$"):
        essay_metadata(config)
