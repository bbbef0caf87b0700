"""A maintained secret scanner, Betterleaks with its own rules (the gitleaks rules and
more, its generic ones too), as a second opinion on the redaction: it finds nothing in a
transcript imported from a session full of planted secrets, nor in the site built from a
transcript holding them, where real logs put them. Every planted secret is also looked
for, byte for byte, in every file."""

from __future__ import annotations

import base64
import json
import re
from pathlib import Path

import betterleaks

import import_transcript
from conftest import build
from test_redact import TOKENS_BY_SHAPE, _private_key, all_planted_secrets

# Tokens of services that the project's own patterns do not know: the second opinion's.
OTHER_SERVICES = {
    "gitlab": "glpat-" + "Zx9Kq2Lm4Np6Rs8Tv0Wy",
    "sendgrid": "SG." + "aB3dE5gH7jK9mN1pQ3sT5v" + "." + "wX7yZ9bC1dE3fG5hJ7kL9mN1pQ3sT5vW7yZ9bC1dE3f",
}


def planted_lines() -> dict[str, tuple[str, str]]:
    """name -> (a line of a session holding a secret, the secret), in the places real
    logs put them: after JSON's escapes and a word's letters, in passwords that run on
    past punctuation, in look-alike and invisible characters, in `.netrc` and cookies."""
    lines = {f"planted-{kind}": value for kind, value in all_planted_secrets().items()}
    for shape, token in TOKENS_BY_SHAPE.items():
        lines[f"escaped-{shape}"] = ('{"ok":true,"out":"cloned\\n' + token + '\\u0022}"}', token)
        lines[f"word-{shape}"] = (f"mcp__vault__{token} and x{token}", token)
    password = "abc&Wm3;Tr0(ub)K9,x"
    lines["env-file"] = (f"$ cat .env\nDB_HOST=db\nDB_PASSWORD={password}\nDB_PORT=5432\n", password)
    lines["ini-file"] = ("[smtp]\nuser = me\npassword = two words Wm3Tr0ubK9\n", "two words Wm3Tr0ubK9")
    lines["libpq"] = (f"psql 'host=db password={password} dbname=app'", password)
    lines["url-hash"] = ("git remote add o https://me:Wm3#Tr0/ubK9x@git.example.org/r.git", "Wm3#Tr0/ubK9x")
    lines["netrc"] = ("machine api.example.org\n  login me\n  password Wm3Tr0ubK9-netrc\n", "Wm3Tr0ubK9-netrc")
    lines["cookie"] = ("> Cookie: sessionid=Wm3Tr0ubK9cookie42; csrftoken=x\n", "Wm3Tr0ubK9cookie42")
    lines["cdata"] = ("<password><![CDATA[Wm3Tr0ubK9-cdata]]></password>", "Wm3Tr0ubK9-cdata")
    lines["yaml-anchor"] = ("db:\n  password: &pw Wm3Tr0ubK9-yaml\n", "Wm3Tr0ubK9-yaml")
    github = TOKENS_BY_SHAPE["github-token"]
    lines["full-width"] = ("".join(chr(ord(c) + 0xFEE0) for c in github), github[4:])
    lines["zero-width"] = (github[:9] + "\u200b" + github[9:], github[9:])
    for service, token in OTHER_SERVICES.items():
        lines[f"service-{service}"] = (f"export TOKEN_FOR_{service.upper()}_CI=ok\n{token}", token)
    return lines


# What a generic rule takes for a password's value and is none: a redaction's marker
# (`"password": "[REDACTED: secret-field]"`), the search index's message numbers
# (`"password":[9049,`).
NO_SECRET = re.compile(r"\[REDACTED: [a-z0-9-]+\]|\[?[0-9,]+\]?")


def _scanned(folder: Path) -> list[str]:
    """What Betterleaks, with its default rules, finds in every file under `folder`."""
    found = []
    for path in sorted(folder.rglob("*")):
        if path.is_file() and path.suffix not in {".png", ".jpg", ".gif", ".webp", ".pdf", ".woff2"}:
            found += [f"{path.relative_to(folder)}: {f.rule_id} {f.secret!r}" for f in betterleaks.scan_file(str(path))
                      if not NO_SECRET.fullmatch(f.secret)]
    return found


def _assert_nowhere(folder: Path, secrets: list[str]) -> None:
    for path in folder.rglob("*"):
        if path.is_file():
            content = path.read_bytes()
            for secret in secrets:
                assert secret.encode() not in content, f"{secret!r} in {path}"


def test_a_session_full_of_planted_secrets_is_imported_without_one(tmp_path, capsys):
    log = tmp_path / "session.jsonl"
    records = []
    for n, (name, (line, _)) in enumerate(planted_lines().items()):
        records.append({"type": "assistant", "uuid": f"a{n}", "message": {"role": "assistant", "content": [
            {"type": "tool_use", "id": f"t{n}", "name": "Bash", "input": {"command": line, "description": name}}]}})
        records.append({"type": "user", "uuid": f"u{n}", "message": {"role": "user", "content": [
            {"type": "tool_result", "tool_use_id": f"t{n}", "content": line}]}})
    # A private key read in two parts, one message each.
    key = _private_key()
    for n, part in enumerate((key[: len(key) // 2], key[len(key) // 2 :])):
        records.append({"type": "user", "uuid": f"k{n}", "message": {"role": "user", "content": f"part {n}:\n{part}"}})
    log.write_text("".join(json.dumps(record) + "\n" for record in records), encoding="utf-8")
    output = tmp_path / "docs" / "transcript.jsonl"
    output.parent.mkdir()
    assert import_transcript.main([str(log), "-o", str(output)]) == 0
    report = capsys.readouterr().err
    assert "redacted no secrets" not in report
    assert _scanned(output.parent) == []
    body = [line for line in key.splitlines() if "PRIVATE" not in line]
    _assert_nowhere(output.parent, [secret for _, secret in planted_lines().values()] + body)
    _assert_nowhere(output.parent, [base64.b64encode(secret.encode()).decode() for _, secret in
                                    planted_lines().values() if len(secret) > 12])


def test_the_site_built_from_a_transcript_holding_them_holds_none(project, tmp_path):
    lines = planted_lines()
    transcript = project / "docs" / "transcript.jsonl"
    records = [
        {"n": 9000 + i, "speaker": "tool", "provenance": "verbatim", "text": line,
         "tool_name": "Bash", "tool_input": {"command": line, "description": name}, "thinking": f"It printed: {line}"}
        for i, (name, (line, _)) in enumerate(lines.items())
    ]
    transcript.write_text(transcript.read_text() + "".join(json.dumps(r) + "\n" for r in records))
    page = project / "docs" / "conclusion.md"
    page.write_text(page.read_text() + "\n\n" + " ".join(f"[msg {r['n']}]" for r in records) + "\n")
    site = tmp_path / "site"
    result = build(project, site)
    assert result.returncode == 0, result.stderr
    assert _scanned(site) == []
    _assert_nowhere(site, [secret for _, secret in lines.values()])
