"""How many planted secrets each redaction leaves, where real logs put secrets.

    cd scripts && python -m perf.redaction_coverage

Plants fake secrets the way session logs hold them (known tokens after a word's letters
and after JSON's and URLs' escapes, passwords holding punctuation or spaces, `.netrc`,
cookies, CDATA, YAML anchors, a key's second half, look-alike and invisible characters,
tokens of services no pattern here knows) and prints, for each class, how many of them
the project's patterns alone, the second opinion (Betterleaks, every rule of its own, its
generic ones too) alone, and both together (transcript.redact as it runs) leave readable.
"""

from __future__ import annotations

import json

from transcript import second_opinion
from transcript.redact import Redactor
from transcript.secret_patterns import BUILTIN_PATTERNS

BODY = "aB3dE5gH7jK9mN1pQ3sT5vW7yZ9bC1dE3fG5"
TOKENS = ["gh" + "p_" + BODY, "github_" + "pat_11ABCDEFG0" + "a" * 50, "sk-" + "ant-api03-" + BODY,
          "sk-" + "proj-" + BODY, "sk-" + BODY, "h" + "f_" + BODY, "AKIA" + "QWERTYUIOP234567",
          "xox" + "b-1234567890-" + "abcdefghij" * 2, "AI" + "za" + BODY, "sk_" + "live_" + BODY[:24],
          "wh" + "sec_" + BODY, "np" + "m_" + BODY]
BEFORE = ["", " ", "x", "9", "_", "\\n", "\\t", "\\u0022", "%0A", "mcp__"]
PASSWORD = "abc{}Wm3Tr0ubK9"
PUNCTUATION = ["&", ";", ",", ")", "}", "<", ">", "(", "[", "#", " "]
PASSWORD_FORMS = ["DB_HOST=db\nDB_PASSWORD={}\nDB_PORT=5432\n", "[db]\nhost = db\npassword = {}\n",
                  "protocol=https\nhost=github.com\nusername=me\npassword={}\n", "psql 'host=db password={} dbname=a'"]
OTHER = {
    "netrc": ("machine api.example.org\n  login me\n  password Wm3Tr0ubK9\n", "Wm3Tr0ubK9"),
    "cookie": ("> Cookie: sid=Wm3Tr0ubK9xyz; theme=dark\n", "Wm3Tr0ubK9xyz"),
    "cdata": ("<password><![CDATA[Wm3Tr0ubK9]]></password>", "Wm3Tr0ubK9"),
    "yaml anchor": ("db:\n  password: &pw Wm3Tr0ubK9\n", "Wm3Tr0ubK9"),
    "yaml quoted key": ('db:\n  "password": Wm3Tr0ubK9\n', "Wm3Tr0ubK9"),
    "url with #": ("postgres://me:abc#Wm3Tr0ubK9@db/app", "Wm3Tr0ubK9"),
    "key's second half": ("MIIEfake" + "A" * 56 + "\nMIIEfake" + "B" * 56 + "\n-----END RSA " + "PRIVATE KEY-----",
                          "BBBBBBBBBBBB"),
    "full-width token": ("".join(chr(ord(c) + 0xFEE0) for c in TOKENS[0]), "ａ"),
    "zero-width inside": (TOKENS[0][:9] + "\u200b" + TOKENS[0][9:], TOKENS[0][9:]),
    "gitlab token": ("GITLAB=" + "glpat-" + "Zx9Kq2Lm4Np6Rs8Tv0Wy", "Zx9Kq2Lm4Np6Rs8Tv0Wy"),
    "sendgrid key": ("SG." + "aB3dE5gH7jK9mN1pQ3sT5v." + "wX7yZ9bC1dE3fG5hJ7kL9mN1pQ3sT5vW7yZ9bC1dE3f", "wX7yZ9bC1d"),
}


def planted() -> dict[str, list[tuple[str, str]]]:
    """Class -> the texts planted in it, each with a piece of its secret that must not stay."""
    classes: dict[str, list[tuple[str, str]]] = {"token after a character": [], "password to its end": []}
    for token in TOKENS:
        for before in BEFORE:
            text = json.dumps({"out": f"cloned{before}{token}\\nnext"})
            classes["token after a character"].append((text, token[-12:]))
    for form in PASSWORD_FORMS:
        for mark in PUNCTUATION:
            if not (mark == " " and form.startswith("psql")):  # libpq ends a value without quotes at a space
                classes["password to its end"].append((form.format(PASSWORD.format(mark)), "Wm3Tr0ubK9"))
    for name, case in OTHER.items():
        classes[name] = [case]
    return classes


def leaks_of(redact, cases: list[tuple[str, str]]) -> int:
    return sum(piece in redact(text) for text, piece in cases)


def main() -> None:
    own = Redactor()
    own_only = own._redact_own  # the patterns without the second opinion

    def opinion_only(text: str) -> str:
        for rule, value in scan_all_rules(text):
            text = text.replace(value, f"[REDACTED: {rule}]")
        return text

    def both(text: str) -> str:
        return own.redact_text(text)[0]

    print(f"{len(BUILTIN_PATTERNS)} patterns; second opinion: {second_opinion.IDENTITY}, every rule")
    print(f"{'class':<26}{'planted':>8}{'patterns':>10}{'opinion':>9}{'both':>6}   (secrets left readable)")
    totals = [0, 0, 0, 0]
    for name, cases in planted().items():
        row = [len(cases), leaks_of(lambda t: own_only(t)[0], cases), leaks_of(opinion_only, cases),
               leaks_of(both, cases)]
        totals = [a + b for a, b in zip(totals, row, strict=True)]
        print(f"{name:<26}{row[0]:>8}{row[1]:>10}{row[2]:>9}{row[3]:>6}")
    print(f"{'all':<26}{totals[0]:>8}{totals[1]:>10}{totals[2]:>9}{totals[3]:>6}")


def scan_all_rules(text: str) -> list[tuple[str, str]]:
    """What Betterleaks finds with every rule of its own, in this process (no fork follows)."""
    import betterleaks

    return [(finding.rule_id, finding.secret) for finding in betterleaks.scan_string(text) if finding.secret]


if __name__ == "__main__":
    main()
